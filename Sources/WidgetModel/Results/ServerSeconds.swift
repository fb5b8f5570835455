import ResultStorage
import SimulationEngine

/// Requests per UTC second of the run's days, by ``ServerSource``, and fetched bytes per second (widget and
/// app fetches): what the busiest second asks of the servers, which per-minute counts average away.
///
/// Dense over time, not over devices: a fleet of any size takes the same memory, and devices add their
/// requests in any order to the same integers. Counts are one byte a second and source until a second passes
/// 254 (then exact in a side table), bytes four: 19 bytes per second of the run (49 MB for 30 days). Kept for
/// fleets only; a single device's busiest second is one or two requests.
public struct ServerSeconds: Sendable, TimeSeries {
  /// Seconds covered: the run's UTC days (the ±14 h margins of the per-minute series are left out).
  public private(set) var secondCount: Int
  /// By second and source (``ServerSource/bySlot``).
  private(set) var counts: CompactCounts<UInt8>
  /// By second and stream (``bytesBySecond``).
  private(set) var fetchBytes: CompactCounts<UInt32>

  /// Fetched bytes: a row per second, a cell for widget fetches (0) and one for app fetches (1).
  static var bytesBySecond: TableLayout { TableLayout(columns: 2) }

  public init() {
    secondCount = 0
    counts = CompactCounts(count: 0)
    fetchBytes = CompactCounts(count: 0)
  }

  init(days: Int) {
    secondCount = days * 86_400
    counts = CompactCounts(count: secondCount * ServerSource.count)
    fetchBytes = CompactCounts(count: secondCount * 2)
  }

  /// Whether seconds are kept at all.
  public var isEmpty: Bool { secondCount == 0 }

  /// One request of `source` at local time `time` on a device `offset` ahead of UTC (the model adds a device's
  /// requests together, through ``record(_:)``).
  mutating func record(_ source: ServerSource, bytes amount: Double, at time: SimTime, offset: SimDuration) {
    let request = PendingRequest(source, bytes: amount, at: time, offset: offset, delivered: false)
    withUnsafePointer(to: request) { record(UnsafeBufferPointer(start: $0, count: 1)) }
  }

  /// Adds the requests (not deliveries) among `requests` that fall within the run's seconds, and their bytes.
  mutating func record(_ requests: UnsafeBufferPointer<PendingRequest>) {
    let seconds = secondCount
    func second(_ request: PendingRequest) -> Int? {
      guard !request.delivered, request.utcMicros >= 0 else { return nil }
      let second = Int(request.utcMicros / 1_000_000)
      return second < seconds ? second : nil
    }
    counts.addEach(requests.count) { position in
      second(requests[position]).map { (ServerSource.bySlot.index($0, Int(requests[position].source)), 1) }
    }
    let lastFetch = UInt8(ServerSource.appFetchAlwaysRunning.rawValue)
    let widgetFetch = UInt8(ServerSource.widgetFetch.rawValue)
    fetchBytes.addEach(requests.count) { position in
      let request = requests[position]
      guard request.source <= lastFetch, request.bytes > 0, let second = second(request) else { return nil }
      return (ServerSeconds.bytesBySecond.index(second, request.source == widgetFetch ? 0 : 1), UInt64(request.bytes))
    }
  }

  /// Requests of `source` in second `second` (since 00:00 UTC of day 0).
  public func requests(second: Int, source: ServerSource) -> UInt64 {
    counts[ServerSource.bySlot.index(second, source.rawValue)]
  }

  /// Requests of `stream` (all its sources) in second `second`.
  public func requests(second: Int, stream: ServerStream) -> UInt64 {
    var sum: UInt64 = 0
    for source in stream.sources { sum += requests(second: second, source: source) }
    return sum
  }

  /// Bytes fetched in second `second` by widget fetches or app fetches.
  public func bytes(second: Int, stream: ServerStream) -> UInt64 {
    precondition(stream.keepsBytes, "bytes are kept for widget and app fetches")
    return fetchBytes[ServerSeconds.bytesBySecond.index(second, stream == .widgetFetch ? 0 : 1)]
  }

  public mutating func merge(_ other: ServerSeconds) {
    precondition(secondCount == other.secondCount, "merged per-second loads of different runs")
    counts.merge(other.counts)
    fetchBytes.merge(other.fetchBytes)
  }

  public mutating func reset() {
    counts.reset()
    fetchBytes.reset()
  }

  public mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, secondCount > 0 else { return }
    let seconds = days * 86_400
    counts.dropFirst(ServerSource.bySlot.start(ofRow: seconds))
    fetchBytes.dropFirst(ServerSeconds.bytesBySecond.start(ofRow: seconds))
    secondCount -= seconds
  }

  /// Bytes per second kept per day of the run.
  static let bytesPerDay = 86_400 * (ServerSource.count + 2 * 4)
}

extension ServerSeconds {
  /// The figures of what the servers receive, of what they send, and of every stream, in that order, scaled
  /// by `scale` real devices per simulated one (broadcast requests are the fleet's already). Empty when
  /// seconds are not kept. One pass over the seconds feeding a histogram of counts per stream: no copy of the
  /// series, no sort.
  public func provisioning(scale: Double) -> [ProvisioningFigures] {
    guard secondCount > 0 else { return [] }
    // One pass over the seconds: each second's counts are read once and go to every histogram, rather than
    // the whole series once per stream.
    let streams = ServerStream.allCases
    let broadcast = ServerSource.broadcast.rawValue
    let fleetWide = ServerSource.allCases.map(\.isFleetWide)
    let sent = ServerSource.allCases.map(\.isPush)
    // The stream of each source alone, and the streams of several (the app's fetches on every channel) with
    // their sources' bits.
    let alone = ServerStream.partition.map(\.rawValue)
    let combined = streams.filter { $0.sources.count > 1 }.map { stream in
      (stream.rawValue, stream.sources.reduce(UInt64(0)) { $0 | 1 << UInt64($1.rawValue) })
    }
    precondition(alone.count + combined.count == streams.count, "a stream neither one source nor several")
    var received = CountHistogram()
    var sentByDevices = CountHistogram()
    var byStream = Array(repeating: CountHistogram(), count: streams.count)
    var mostBytes = Array(repeating: 0.0, count: streams.count)
    var broadcasts = false
    var peakBytes = 0.0
    // Seconds without a request (most of a small fleet's) only add to every histogram's count of zeros; so do
    // a stream's own quiet seconds (most streams are quiet in most seconds), counted at the end.
    var next = 0
    while next < secondCount {
      // The next second with a request: the quiet ones before it are skipped, not read.
      let cell = counts.firstNonZero(from: next * ServerSource.count) ?? secondCount * ServerSource.count
      let second = cell / ServerSource.count  // secondCount when none is left: the cells are exactly the seconds'
      next = second + 1
      guard second < secondCount else { break }
      // The second's requests, by the sources that have any (a busy second of a small fleet has one or two).
      let first = ServerSource.bySlot.start(ofRow: second)
      let busy = counts.nonzeroCells(from: first, count: ServerSource.count)
      var into: UInt64 = 0
      var out: UInt64 = 0
      busy.forEachSetBit { source in
        let requests = counts[first + source]
        if !sent[source] {
          into += requests
        } else if !fleetWide[source] {
          out += requests
        }
        if source == broadcast { broadcasts = true }
        byStream[alone[source]].add(requests, second: second)
      }
      for (stream, sources) in combined where busy & sources != 0 {
        var requests: UInt64 = 0
        (busy & sources).forEachSetBit { requests += counts[first + $0] }
        byStream[stream].add(requests, second: second)
      }
      if into > 0 { received.add(into, second: second) }
      if out > 0 { sentByDevices.add(out, second: second) }
      let widgetBytes = fetchBytes[ServerSeconds.bytesBySecond.index(second, 0)]
      let appBytes = fetchBytes[ServerSeconds.bytesBySecond.index(second, 1)]
      peakBytes = Swift.max(peakBytes, Double(widgetBytes + appBytes) * scale)
      mostBytes[ServerStream.widgetFetch.rawValue] = Swift.max(
        mostBytes[ServerStream.widgetFetch.rawValue], Double(widgetBytes) * scale)
      mostBytes[ServerStream.appFetch.rawValue] = Swift.max(
        mostBytes[ServerStream.appFetch.rawValue], Double(appBytes) * scale)
    }
    received.addZeros(secondCount - received.seconds)
    sentByDevices.addZeros(secondCount - sentByDevices.seconds)
    for stream in streams.indices { byStream[stream].addZeros(secondCount - byStream[stream].seconds) }
    var figures = [received.figures(ServerDirection.received.name, factor: scale, peakBytes: peakBytes)]
    figures.append(
      broadcasts
        ? sentWithBroadcasts(scale: scale)
        : sentByDevices.figures(ServerDirection.sent.name, factor: scale, peakBytes: nil))
    for (index, stream) in streams.enumerated() {
      figures.append(
        byStream[index].figures(
          stream.name, factor: stream.isFleetWide ? 1 : scale, peakBytes: stream.keepsBytes ? mostBytes[index] : nil))
    }
    return figures
  }

  /// What the servers send when broadcasts (fleet-wide, not scaled) are among the requests: rare (a
  /// broadcast channel in a second), so the exact figures by value, in a pass of their own.
  private func sentWithBroadcasts(scale: Double) -> ProvisioningFigures {
    var totals: [Double: Int] = [:]
    var peak = (value: 0.0, second: 0)
    var sum = 0.0
    for second in 0..<secondCount {
      var devices: UInt64 = 0
      for source in ServerSource.allCases where source.isPush && !source.isFleetWide {
        devices += requests(second: second, source: source)
      }
      let value = Double(devices) * scale + Double(requests(second: second, source: .broadcast))
      totals[value, default: 0] += 1
      sum += value
      if value > peak.value { peak = (value, second) }
    }
    let sorted = totals.sorted { $0.key < $1.key }
    return ProvisioningFigures(
      stream: ServerDirection.sent.name, meanPerSecond: sum / Double(secondCount),
      p99PerSecond: CountHistogram.p99(sorted.map { ($0.key, $0.value) }, total: secondCount),
      peakPerSecond: peak.value, peakSecond: peak.second, peakBytesPerSecond: nil)
  }

  /// The requests of `second` that went `direction`, by source, scaled to the real fleet: the sources of a
  /// busy second, most first (ties in source order), without the quiet ones.
  public func sources(second: Int, direction: ServerDirection, scale: Double) -> [(
    source: ServerSource, requests: Double
  )] {
    var found: [(source: ServerSource, requests: Double)] = []
    for source in ServerSource.allCases where direction.counts(source) {
      let count = requests(second: second, source: source)
      if count > 0 { found.append((source, Double(count) * (source.isFleetWide ? 1 : scale))) }
    }
    return found.enumerated().sorted { ($0.element.requests, -$0.offset) > ($1.element.requests, -$1.offset) }.map(
      \.element)
  }
}

/// The exact per-second load, for shard files.
extension ServerSeconds: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    secondCount.encode(to: &writer)
    counts.encode(to: &writer)
    fetchBytes.encode(to: &writer)
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    self.init()
    secondCount = try Int(from: &reader)
    counts = try CompactCounts(from: &reader)
    fetchBytes = try CompactCounts(from: &reader)
    guard secondCount >= 0, counts.count == secondCount * ServerSource.count, fetchBytes.count == secondCount * 2 else {
      throw reader.error("a per-second load of the wrong size")
    }
  }
}
