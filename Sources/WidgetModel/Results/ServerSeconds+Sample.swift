import SimulationEngine

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
  /// over each walk, not fitted.
  func estimatedProvisioning(scale: Double, fanOuts: FanOutWindows? = nil)
    -> (figures: [ProvisioningFigures], estimates: [SampledLoadEstimate?])
  {
    let counted = provisioning(scale: scale)
    guard scale > 1, !counted.isEmpty else { return (counted, counted.map { _ in nil }) }
    let active = activeSources()
    var fitted: [UInt64: SampledLoadEstimate] = [:]
    var series = [UInt32](repeating: 0, count: secondCount)
    var bytes: [UInt64] = []
    var figures: [ProvisioningFigures] = []
    var estimates: [SampledLoadEstimate?] = []
    let broadcast = counted[ServerDirection.allCases.count + ServerStream.broadcast.rawValue]
    for (index, figure) in counted.enumerated() {
      let sources = ServerSeconds.sampledSources[index].filter { active[$0.rawValue] }
      guard !sources.isEmpty else {
        figures.append(figure)
        estimates.append(nil)
        continue
      }
      let key = sources.reduce(UInt64(0)) { $0 | 1 << UInt64($1.rawValue) }
      var estimate: SampledLoadEstimate
      if let known = fitted[key] {
        estimate = known
      } else {
        fill(&series, sources)
        let walks = fanOuts?.segments(sources: sources, secondCount: secondCount) ?? []
        estimate = series.withUnsafeBufferPointer { SampledLoadEstimate($0, scale: scale, walks: walks) }
        fitted[key] = estimate
      }
      var peakBytes: (value: Double, interval: SampledInterval, rates: [Double])?
      if figure.peakBytesPerSecond != nil {
        fillBytes(&bytes, widget: sources.contains(.widgetFetch), app: sources.contains { $0 != .widgetFetch })
        peakBytes = bytes.withUnsafeBufferPointer { estimate.peakBytes($0) }
        // What the servers receive keeps its fitted bytes per second (server_peak.csv's fetch_bytes).
        if index == ServerDirection.received.rawValue { estimate.byteRates = peakBytes?.rates ?? [] }
      }
      // What is sent adds the broadcasts, counted: their own p99 and busiest second, at most a few requests.
      let extra: (p99: Double, peak: Double) =
        index == ServerDirection.sent.rawValue ? (broadcast.p99PerSecond, broadcast.peakPerSecond) : (0, 0)
      var estimated = ProvisioningFigures(
        stream: figure.stream, meanPerSecond: figure.meanPerSecond, p99PerSecond: estimate.p99 + extra.p99,
        peakPerSecond: estimate.peak + extra.peak, peakSecond: estimate.peakSecond,
        peakBytesPerSecond: peakBytes?.value)
      estimated.raw = ProvisioningFigures.RawFigures(
        p99PerSecond: figure.p99PerSecond, peakPerSecond: figure.peakPerSecond, peakSecond: figure.peakSecond,
        peakBytesPerSecond: figure.peakBytesPerSecond)
      estimated.p99Interval = estimate.p99Interval.shifted(by: extra.p99)
      estimated.peakInterval = estimate.peakInterval.shifted(by: extra.peak)
      estimated.peakBytesInterval = peakBytes?.interval
      figures.append(estimated)
      estimates.append(estimate)
    }
    return (figures, estimates)
  }

  /// Whether each source made any request in the run (by raw value).
  private func activeSources() -> [Bool] {
    var active = Array(repeating: false, count: ServerSource.count)
    var next = 0
    while next < secondCount, let cell = counts.firstNonZero(from: next * ServerSource.count) {
      let second = cell / ServerSource.count
      guard second < secondCount else { break }
      counts.nonzeroCells(from: second * ServerSource.count, count: ServerSource.count).forEachSetBit {
        active[$0] = true
      }
      next = second + 1
    }
    return active
  }

  /// `series[t]`: the requests of `sources` in second `t`.
  private func fill(_ series: inout [UInt32], _ sources: [ServerSource]) {
    for second in 0..<secondCount {
      var sum: UInt64 = 0
      for source in sources { sum += requests(second: second, source: source) }
      series[second] = UInt32(clamping: sum)
    }
  }

  /// `bytes[t]`: the bytes fetched in second `t` by widgets, the app, or both.
  private func fillBytes(_ bytes: inout [UInt64], widget: Bool, app: Bool) {
    if bytes.count != secondCount { bytes = Array(repeating: 0, count: secondCount) }
    for second in 0..<secondCount {
      bytes[second] =
        (widget ? self.bytes(second: second, stream: .widgetFetch) : 0)
        + (app ? self.bytes(second: second, stream: .appFetch) : 0)
    }
  }
}

extension SampledInterval {
  func shifted(by amount: Double) -> SampledInterval {
    SampledInterval(low: low + amount, high: high + amount, samplingHalfWidth: samplingHalfWidth)
  }
}
