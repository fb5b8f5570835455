import ResultStorage
import SimulationEngine
import Statistics

extension ServerSeconds {
  /// The sources each provisioning figure counts, in ``provisioning(scale:)`` order (received, sent, every
  /// ``ServerStream``), the fleet-wide broadcasts left out: they are counted, not sampled.
  static let sampledSources: [[ServerSource]] =
    [
      ServerSource.allCases.filter { ServerDirection.received.counts($0) },
      ServerSource.allCases.filter { ServerDirection.sent.counts($0) && !$0.isFleetWide },
    ] + ServerStream.allCases.map { stream in stream.sources.filter { !$0.isFleetWide } }

  /// ``provisioning(scale:)`` with the p99, the busiest second and the most bytes in a second of every
  /// figure estimated for the whole fleet when each simulated device stands for more than one phone
  /// (`scale` above 1: ``SampledLoadEstimate``); the sample's own, scaled, kept as ``ProvisioningFigures/raw``.
  /// Also the estimates, in the same order (nil: counted exactly, or nothing to estimate), which give the
  /// fleet's fitted rate in any second. Pushes the servers send walking the fleet (`fanOuts`) are taken
  /// over each walk, not fitted; seconds that `rule` explains (a time the scenario names) need less to be
  /// taken for ones the phones shared. What the servers receive is held to what the whole fleet can make
  /// in a second (`limits`). With the sample's number of `phones`, its rates are off by as much as the phones
  /// share each hour's requests unevenly (``PhoneHours``).
  func estimatedProvisioning(
    scale: Double, fanOuts: FanOutWindows? = nil, rule: HerdRule? = nil, limits: FleetLoadLimits? = nil,
    phones: Int? = nil
  ) -> (figures: [ProvisioningFigures], estimates: [SampledLoadEstimate?]) {
    let counted = provisioning(scale: scale)
    guard scale > 1, !counted.isEmpty else { return (counted, counted.map { _ in nil }) }
    let active = activeSources()
    var fitted: [UInt64: SampledLoadEstimate] = [:]
    var receivedLargestResponse = 0.0
    var series = [UInt32](repeating: 0, count: secondCount)
    var figures: [ProvisioningFigures] = []
    var estimates: [SampledLoadEstimate?] = []
    let broadcast = counted[ServerDirection.allCases.count + ServerStream.source(.broadcast).rawValue]
    for (index, figure) in counted.enumerated() {
      let sources = ServerSeconds.sampledSources[index].filter { active[$0.rawValue] }
      guard !sources.isEmpty else {
        figures.append(figure)
        estimates.append(nil)
        continue
      }
      // A stream's p99 and busiest second are not estimable from a sample (docs/capacity.md): its estimate
      // is its fitted rates (which second holds what), its figures the sample's, scaled.
      let isStream = index >= ServerDirection.allCases.count
      var estimate = estimated(
        sources, figures: !isStream, scale: scale, fanOuts: fanOuts, rule: rule,
        phones: phones.flatMap { phoneSquares(phones: $0, direction: ServerDirection(rawValue: index)) },
        series: &series, known: &fitted)
      guard !isStream else {
        var sampled = figure
        sampled.raw = ProvisioningFigures.RawFigures(
          p99PerSecond: figure.p99PerSecond, peakPerSecond: figure.peakPerSecond, peakSecond: figure.peakSecond,
          peakBytesPerSecond: figure.peakBytesPerSecond)
        figures.append(sampled)
        estimates.append(estimate)
        continue
      }
      var peakBytes: (value: Double, interval: SampledInterval)?
      var largestResponse = 0.0
      if figure.peakBytesPerSecond != nil {
        // What the servers receive comes first, its series in hand: its largest response bounds every stream's.
        let received = index == ServerDirection.received.rawValue
        let bytes = series.withUnsafeBufferPointer { series in
          self.peakBytes(&estimate, sources: sources, keepingRates: received, requests: received ? series : nil)
        }
        peakBytes = (bytes.value, bytes.interval)
        if received { receivedLargestResponse = bytes.largestResponse }
        largestResponse = receivedLargestResponse
      }
      // What is sent adds the broadcasts, counted: their own p99 and busiest second, at most a few requests.
      let extra: (p99: Double, peak: Double) =
        index == ServerDirection.sent.rawValue ? (broadcast.p99PerSecond, broadcast.peakPerSecond) : (0, 0)
      var estimated = ProvisioningFigures(estimate, counted: figure, adding: extra, peakBytes: peakBytes)
      if let limits, sources.allSatisfy({ ServerDirection.received.counts($0) }) {
        estimated = estimated.held(to: limits, largestResponse: largestResponse)
      }
      figures.append(estimated)
      estimates.append(estimate)
    }
    return (figures, estimates)
  }

  /// The estimate of `sources`' requests (with its `figures`, or only its rates), from `known` (by the set of
  /// sources) when it holds one; else fitted to their series (filled into `series`) and kept there.
  private func estimated(
    _ sources: [ServerSource], figures: Bool, scale: Double, fanOuts: FanOutWindows?, rule: HerdRule?,
    phones: PhoneSpread.Squares? = nil, series: inout [UInt32], known: inout [UInt64: SampledLoadEstimate]
  ) -> SampledLoadEstimate {
    let key = sources.reduce(UInt64(0)) { $0 | 1 << UInt64($1.rawValue) }
    if let estimate = known[key], estimate.hasFigures || !figures, phones == nil || !estimate.phoneSpread.hours.isEmpty
    {
      return estimate
    }
    fill(&series, sources)
    let walks = fanOuts?.segments(sources: sources, secondCount: secondCount) ?? []
    let fetches = sources.allSatisfy { ServerDirection.received.counts($0) }
    let estimate = series.withUnsafeBufferPointer { series in
      guard let rule else {
        return SampledLoadEstimate(series, scale: scale, walks: walks, figures: figures, phones: phones)
      }
      return SampledLoadEstimate(
        series, scale: scale, walks: walks, figures: figures, fetches: fetches, phones: phones
      ) {
        rule.explanation(second: $0) != nil
      }
    }
    known[key] = estimate
    return estimate
  }

  /// The busiest second of bytes `sources` fetched, estimated over `estimate`'s blocks and shared stretches;
  /// with `keepingRates`, the estimate keeps its fitted bytes per second (what the servers receive:
  /// server_peak.csv's fetch_bytes).
  /// With `requests` (the sources' requests per second), also the most bytes one request fetched as far as
  /// the seconds show it: the largest mean per request of any second (a second of one request shows that
  /// response whole).
  private func peakBytes(
    _ estimate: inout SampledLoadEstimate, sources: [ServerSource], keepingRates: Bool,
    requests: UnsafeBufferPointer<UInt32>?
  ) -> (value: Double, interval: SampledInterval, largestResponse: Double) {
    let fetched = blockBytes(
      estimate.blocks, shared: estimate.sharedStretches, widget: sources.contains(.widgetFetch),
      app: sources.contains { $0 != .widgetFetch }, requests: requests)
    let bytes = estimate.peakBytes(fetched)
    if keepingRates {
      estimate.byteRates = bytes.rates
      estimate.sharedByteRates = bytes.sharedRates
    }
    return (bytes.value, bytes.interval, fetched.largestResponse)
  }

  /// What the sample's `phones` recorded of their requests going `direction` (``PhoneHours``); nil for a
  /// stream (no direction).
  private func phoneSquares(phones: Int, direction: ServerDirection?) -> PhoneSpread.Squares? {
    direction.map { direction in
      PhoneSpread.Squares(
        phones: phones, hours: (0..<phoneHours.hourCount).map { phoneHours[direction, $0] },
        days: (0..<phoneHours.dayCount).map { phoneHours[direction, day: $0] })
    }
  }

  /// Whether each source made any request in the run (by raw value).
  private func activeSources() -> [Bool] {
    let width = ServerSource.count
    var seen = Array(repeating: UInt8(0), count: width)
    counts.cells.withUnsafeBytes { bytes in
      // Eight seconds are `width` whole words, whose bytes fall on the same sources in every such group: or
      // the words together, then read each byte's source.
      let groups = bytes.count / (8 * width)
      let wordsOfGroups = TableLayout(columns: width)
      var words = Array(repeating: UInt64(0), count: width)
      words.withUnsafeMutableBufferPointer { words in
        for group in 0..<groups {
          for word in 0..<width {
            words[word] |= UInt64(
              littleEndian: bytes.loadUnaligned(fromByteOffset: wordsOfGroups.index(group, word) * 8, as: UInt64.self))
          }
        }
        for word in 0..<width {
          for byte in 0..<8 { seen[(word * 8 + byte) % width] |= UInt8(truncatingIfNeeded: words[word] >> (8 * byte)) }
        }
      }
      for offset in (groups * 8 * width)..<bytes.count { seen[offset % width] |= bytes[offset] }
    }
    return seen.map { $0 != 0 }
  }

  /// `series[t]`: the requests of `sources` in second `t`, a source at a time over chunks of seconds that
  /// stay in cache while each of their sources is added.
  private func fill(_ series: inout [UInt32], _ sources: [ServerSource]) {
    let seconds = secondCount
    let chunk = 4_096
    series.withUnsafeMutableBufferPointer { series in
      let top = counts.cells.withUnsafeBufferPointer { cells in
        // Raw pointers, bounds checked here once.
        precondition(cells.count >= ServerSource.bySlot.start(ofRow: seconds) && series.count >= seconds)
        guard seconds > 0, let cells = cells.baseAddress, let sums = series.baseAddress else { return UInt8(0) }
        var top: UInt8 = 0
        for first in stride(from: 0, to: seconds, by: chunk) {
          let end = Swift.min(first + chunk, seconds)
          for time in first..<end { sums[time] = 0 }
          for source in sources {
            // A source's cells lie a row apart: step a pointer down its column.
            var cell = cells + ServerSource.bySlot.index(first, source.rawValue)
            for time in first..<end {
              top = Swift.max(top, cell.pointee)
              sums[time] &+= UInt32(cell.pointee)
              cell += ServerSource.count
            }
          }
        }
        return top
      }
      // A cell at its maximum marks a count kept apart (rare): read every count through the counts then.
      guard top == UInt8.max else { return }
      for time in 0..<seconds {
        series[time] = UInt32(clamping: sources.reduce(UInt64(0)) { $0 + requests(second: time, source: $1) })
      }
    }
  }

  /// The bytes fetched by widgets, the app, or both in each of `blocks` (in order, covering every second)
  /// but its `shared` stretches (ascending), and in each of those; and the dispersion of the bytes per
  /// second, pairs with a shared second left out: one walk over the seconds, no series kept.
  private func blockBytes(
    _ blocks: [RateBlock], shared: [Range<Int>], widget: Bool, app: Bool, requests: UnsafeBufferPointer<UInt32>?
  ) -> SampledBytes {
    var differences = SuccessiveDifferences()
    var totals: [UInt64] = []
    totals.reserveCapacity(blocks.count)
    var sharedBytes: [UInt64] = []
    sharedBytes.reserveCapacity(shared.count)
    var next = 0
    var nextShared = 0
    var previousShared = false
    var largestResponse = 0.0
    var singles = LargestResponses()
    fetchBytes.cells.withUnsafeBufferPointer { cells in
      for block in blocks {
        precondition(block.start == next, "blocks cover every second in order")
        next = block.start + block.seconds
        var sum: UInt64 = 0
        for time in block.start..<next {
          let bytes = secondBytes(time, cells, widget: widget, app: app)
          while nextShared < shared.count && shared[nextShared].upperBound <= time { nextShared += 1 }
          let isShared = nextShared < shared.count && shared[nextShared].contains(time)
          if isShared {
            if time == shared[nextShared].lowerBound { sharedBytes.append(0) }
            sharedBytes[sharedBytes.count - 1] &+= bytes
          } else {
            sum &+= bytes
          }
          differences.add(Double(bytes), paired: !(isShared || previousShared))
          if let requests, requests[time] > 0 {
            largestResponse = Swift.max(largestResponse, Double(bytes) / Double(requests[time]))
            if requests[time] == 1 { singles.add(Double(bytes)) }
          }
          previousShared = isShared
        }
        totals.append(sum)
      }
    }
    precondition(next == secondCount, "blocks cover every second")
    let tail = excesses(
      blocks, totals: totals, shared: shared, dispersion: differences.dispersion, widget: widget, app: app)
    return SampledBytes(
      blockTotals: totals, shared: sharedBytes, dispersion: differences.dispersion, largestResponse: largestResponse,
      excesses: tail.excesses, cumulants: tail.cumulants, singles: singles)
  }

  /// The bytes fetched by widgets, the app, or both in second `time` (`cells`: ``fetchBytes``' cells).
  @inline(__always)
  private func secondBytes(_ time: Int, _ cells: UnsafeBufferPointer<UInt32>, widget: Bool, app: Bool) -> UInt64 {
    let widgetBytes = widget ? cells[ServerSeconds.bytesBySecond.index(time, 0)] : 0
    let appBytes = app ? cells[ServerSeconds.bytesBySecond.index(time, 1)] : 0
    // A cell at its maximum marks a count kept apart: read it through the counts.
    guard widgetBytes == .max || appBytes == .max else { return UInt64(widgetBytes) + UInt64(appBytes) }
    return (widget ? bytes(second: time, stream: .source(.widgetFetch)) : 0)
      + (app ? bytes(second: time, stream: .appFetch) : 0)
  }

  /// By how much each second but the `shared` ones went past its block's mean bytes and
  /// ``SampledBytes/excessDeviations`` standard deviations (at `dispersion`), where it did: the tail the
  /// sample's largest responses make. Also the second and third central moments of those seconds' bytes about
  /// their blocks' means, per byte (``SampledBytes/cumulants``).
  private func excesses(
    _ blocks: [RateBlock], totals: [UInt64], shared: [Range<Int>], dispersion: Double, widget: Bool, app: Bool
  ) -> (excesses: [Double], cumulants: (second: Double, third: Double)) {
    var excesses: [Double] = []
    var (squares, cubes, sum) = (0.0, 0.0, 0.0)
    var nextShared = 0
    fetchBytes.cells.withUnsafeBufferPointer { cells in
      for (block, total) in zip(blocks, totals) {
        let end = block.start + block.seconds
        let inside = shared.overlapping(block.start..<end, from: nextShared)
        nextShared = inside.lowerBound
        let last = inside.upperBound
        let sharedSeconds = shared[inside].reduce(0) { $0 + $1.clamped(to: block.start..<end).count }
        let mean = Double(total) / Double(Swift.max(1, block.seconds - sharedSeconds))
        let threshold = mean + SampledBytes.excessDeviations * (dispersion * Swift.max(mean, 1)).squareRoot()
        var stretch = nextShared
        for time in block.start..<end {
          while stretch < last && shared[stretch].upperBound <= time { stretch += 1 }
          if stretch < last && shared[stretch].contains(time) { continue }
          let value = Double(secondBytes(time, cells, widget: widget, app: app))
          if value > threshold { excesses.append(value - threshold) }
          let deviation = value - mean
          squares += deviation * deviation
          cubes += deviation * deviation * deviation
          sum += value
        }
      }
    }
    return (excesses, sum > 0 ? (squares / sum, cubes / sum) : (0, 0))
  }
}
