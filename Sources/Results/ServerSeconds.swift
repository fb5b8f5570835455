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
  /// Requests a phone made of a source it had asked in that second already (several widgets reloading
  /// together), so that ``phones(second:source:)`` counts phones: kept for each source that has any (a
  /// fleet of one-widget phones keeps none).
  private(set) var repeats = RepeatColumns(secondCount: 0)
  /// How unevenly the phones share each hour's requests (``PhoneHours``).
  var phoneHours = PhoneHours()

  /// Fetched bytes: a row per second, a cell for widget fetches (0) and one for app fetches (1).
  static var bytesBySecond: TableLayout { TableLayout(columns: 2) }

  public init() {
    secondCount = 0
    counts = CompactCounts(count: 0)
    fetchBytes = CompactCounts(count: 0)
  }

  package init(days: Int) {
    secondCount = days * 86_400
    counts = CompactCounts(count: secondCount * ServerSource.count)
    fetchBytes = CompactCounts(count: secondCount * 2)
    repeats = RepeatColumns(secondCount: secondCount)
    phoneHours = PhoneHours(hourCount: days * 24)
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
    recordRepeats(requests, second: second)
    // The fetch sources come first (``ServerLoad/fetchSources``), however many there are.
    let fetchEnd = UInt8(ServerLoad.fetchSources.upperBound)
    let widgetFetch = UInt8(ServerSource.widgetFetch.rawValue)
    fetchBytes.addEach(requests.count) { position in
      let request = requests[position]
      guard request.source < fetchEnd, request.bytes > 0, let second = second(request) else { return nil }
      return (ServerSeconds.bytesBySecond.index(second, request.source == widgetFetch ? 0 : 1), UInt64(request.bytes))
    }
  }

  /// Requests of `source` in second `second` (since 00:00 UTC of day 0).
  public func requests(second: Int, source: ServerSource) -> UInt64 {
    counts[ServerSource.bySlot.index(second, source.rawValue)]
  }

  /// Phones that made a request of `source` in second `second`: its requests less a phone's repeats.
  public func phones(second: Int, source: ServerSource) -> UInt64 {
    counts[ServerSource.bySlot.index(second, source.rawValue)] - repeats[second, source.rawValue]
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
    return fetchBytes[ServerSeconds.bytesBySecond.index(second, stream == .source(.widgetFetch) ? 0 : 1)]
  }

  public mutating func merge(_ other: ServerSeconds) {
    precondition(secondCount == other.secondCount, "merged per-second loads of different runs")
    counts.merge(other.counts)
    fetchBytes.merge(other.fetchBytes)
    repeats.merge(other.repeats)
    phoneHours.merge(other.phoneHours)
  }

  public mutating func reset() {
    counts.reset()
    fetchBytes.reset()
    repeats.reset()
    phoneHours.reset()
  }

  public mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, secondCount > 0 else { return }
    let seconds = days * 86_400
    counts.dropFirst(ServerSource.bySlot.start(ofRow: seconds))
    fetchBytes.dropFirst(ServerSeconds.bytesBySecond.start(ofRow: seconds))
    repeats.dropFirst(seconds: seconds)
    phoneHours.dropFirst(days: days, of: total)
    secondCount -= seconds
  }

  /// Adds the repeats among `requests` (``PendingRequest/repeated``) in the seconds `second` finds them.
  private mutating func recordRepeats(
    _ requests: UnsafeBufferPointer<PendingRequest>, second: (PendingRequest) -> Int?
  ) {
    for request in requests where request.repeated {
      if let found = second(request) { repeats.add(second: found, source: Int(request.source)) }
    }
  }

  /// Bytes per second kept per day of the run.
  static let bytesPerDay = 86_400 * (ServerSource.count + 2 * 4)
}

extension ServerSeconds {
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
    repeats.bySecond.encode(to: &writer)
    phoneHours.encode(to: &writer)
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    self.init()
    secondCount = try Int(from: &reader)
    counts = try CompactCounts(from: &reader)
    fetchBytes = try CompactCounts(from: &reader)
    let repeated = try CompactCounts<UInt8>(from: &reader)
    phoneHours = try PhoneHours(from: &reader)
    guard secondCount >= 0, counts.count == secondCount * ServerSource.count, fetchBytes.count == secondCount * 2,
      repeated.count == 0 || repeated.count == counts.count, phoneHours.hourCount * 3_600 == secondCount
    else {
      throw reader.error("a per-second load of the wrong size")
    }
    repeats = RepeatColumns(bySecond: repeated, secondCount: secondCount)
  }
}

extension ServerSeconds {
  /// The first second at or after `second` with a request of any source, nil when none is left: the quiet
  /// seconds before it are skipped eight cells at a time, not read one by one.
  func busySecond(from second: Int) -> Int? {
    guard second < secondCount, let cell = counts.firstNonZero(from: ServerSource.bySlot.start(ofRow: second))
    else { return nil }
    let busy = ServerSource.bySlot.row(of: cell)
    // The cells are exactly the seconds', so a cell found is a second of the run.
    return busy < secondCount ? busy : nil
  }
}
