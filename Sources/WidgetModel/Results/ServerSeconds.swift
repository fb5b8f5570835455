import SimulationEngine

/// The request streams a provisioning figure is given for: fetches by who makes them, pushes by type, a
/// broadcast channel's updates, Live Activity token registrations.
public enum ServerStream: Int, CaseIterable, Sendable {
  case widgetFetch
  case appFetch
  case widgetPush
  case silentPush
  case activityPush
  case broadcast
  case tokenRegistration

  /// How `summary.csv` names it (in the `widget` column of the provisioning metrics).
  public var name: String {
    switch self {
    case .widgetFetch: "widget_fetch"
    case .appFetch: "app_fetch"
    case .widgetPush: "widget_push"
    case .silentPush: "silent_push"
    case .activityPush: "activity_push"
    case .broadcast: "broadcast"
    case .tokenRegistration: "token_registration"
    }
  }

  /// Whether one request serves the whole fleet (never scaled by `fleet.represents`).
  public var isFleetWide: Bool { self == .broadcast }

  /// Whether requests carry fetched bytes.
  public var isFetch: Bool { self == .widgetFetch || self == .appFetch }

  init(_ source: ServerSource) {
    switch source {
    case .widgetFetch: self = .widgetFetch
    case .appFetchForeground, .appFetchAudioSession, .appFetchBackgroundRefresh, .appFetchSilentPush,
      .appFetchAlwaysRunning:
      self = .appFetch
    case .widgetPush: self = .widgetPush
    case .silentPush: self = .silentPush
    case .activityPush: self = .activityPush
    case .broadcast: self = .broadcast
    case .tokenRegistration: self = .tokenRegistration
    }
  }

  static var count: Int { 7 }
}

/// Requests per UTC second of the run's days, by ``ServerStream``, and fetched bytes per second (widget and
/// app fetches): what the busiest second asks of the servers, which per-minute counts average away.
///
/// Dense over time, not over devices: a fleet of any size takes the same memory, and devices add their
/// requests in any order to the same integers. Counts are one byte a second and stream until a second passes
/// 254 (then exact in a side table), bytes four: 15 bytes per second of the run (39 MB for 30 days). Kept for
/// fleets only; a single device's busiest second is one or two requests.
public struct ServerSeconds: Sendable, TimeSeries {
  /// Seconds covered: the run's UTC days (the ±14 h margins of the per-minute series are left out).
  public private(set) var secondCount: Int
  /// By `second * ServerStream.count + stream`.
  private var counts: CompactCounts<UInt8>
  /// By `second * 2 + (0: widget fetch, 1: app fetch)`.
  private var fetchBytes: CompactCounts<UInt32>

  public init() {
    secondCount = 0
    counts = CompactCounts(count: 0)
    fetchBytes = CompactCounts(count: 0)
  }

  init(days: Int) {
    secondCount = days * 86_400
    counts = CompactCounts(count: secondCount * ServerStream.count)
    fetchBytes = CompactCounts(count: secondCount * 2)
  }

  /// Whether seconds are kept at all.
  public var isEmpty: Bool { secondCount == 0 }

  /// Position of the UTC second of local time `time` on a device `offset` ahead of UTC; nil outside the run.
  @inline(__always)
  func second(_ time: SimTime, offset: SimDuration) -> Int? {
    let micros = time.microseconds - offset.microseconds
    guard micros >= 0 else { return nil }
    let second = Int(micros / 1_000_000)
    return second < secondCount ? second : nil
  }

  mutating func record(_ stream: ServerStream, bytes amount: Double, at time: SimTime, offset: SimDuration) {
    guard let second = second(time, offset: offset) else { return }
    counts.add(1, at: second * ServerStream.count + stream.rawValue)
    guard stream.isFetch, amount > 0 else { return }
    fetchBytes.add(UInt64(clamping: Int64(clampedNearest: amount)), at: second * 2 + (stream == .widgetFetch ? 0 : 1))
  }

  /// Requests of `stream` in second `second` (since 00:00 UTC of day 0).
  public func requests(second: Int, stream: ServerStream) -> UInt64 {
    counts[second * ServerStream.count + stream.rawValue]
  }

  /// Bytes fetched in second `second` by widget fetches or app fetches.
  public func bytes(second: Int, stream: ServerStream) -> UInt64 {
    precondition(stream.isFetch, "bytes are kept for fetches")
    return fetchBytes[second * 2 + (stream == .widgetFetch ? 0 : 1)]
  }

  mutating func merge(_ other: ServerSeconds) {
    precondition(secondCount == other.secondCount, "merged per-second loads of different runs")
    counts.merge(other.counts)
    fetchBytes.merge(other.fetchBytes)
  }

  mutating func reset() {
    counts.reset()
    fetchBytes.reset()
  }

  mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, secondCount > 0 else { return }
    let seconds = days * 86_400
    counts.dropFirst(seconds * ServerStream.count)
    fetchBytes.dropFirst(seconds * 2)
    secondCount -= seconds
  }

  /// Bytes per second kept per day of the run.
  static let bytesPerDay = 86_400 * (ServerStream.count + 2 * 4)
}

/// What one request stream (or all of them) asks of the servers per second over the run, scaled to the real
/// fleet: the mean, the 99th percentile and the busiest second, and the most bytes fetched in one second.
public struct ProvisioningFigures: Sendable, Equatable {
  /// `total`, or a ``ServerStream`` name.
  public let stream: String
  public let meanPerSecond: Double
  public let p99PerSecond: Double
  public let peakPerSecond: Double
  /// The busiest second (since 00:00 UTC of the first measured day).
  public let peakSecond: Int
  /// Fetch streams and the total only.
  public let peakBytesPerSecond: Double?
}

extension ServerSeconds {
  /// The figures of every stream and of their total, scaled by `scale` real devices per simulated one
  /// (broadcast requests are the fleet's already). Empty when seconds are not kept. One pass per stream over
  /// the seconds with a histogram of counts: no copy of the series, no sort.
  public func provisioning(scale: Double) -> [ProvisioningFigures] {
    guard secondCount > 0 else { return [] }
    var figures: [ProvisioningFigures] = []
    // The total is `scale` x (every per-device stream) + broadcasts: histograms of both parts.
    var perDevice = CountHistogram()
    var totals: [Double: Int] = [:]
    var broadcasts = false
    var peakBytes = 0.0
    for second in 0..<secondCount {
      var devices: UInt64 = 0
      for stream in ServerStream.allCases where !stream.isFleetWide {
        devices += requests(second: second, stream: stream)
      }
      let fleetWide = requests(second: second, stream: .broadcast)
      if fleetWide > 0 { broadcasts = true }
      perDevice.add(devices, second: second)
      if broadcasts { totals[Double(devices) * scale + Double(fleetWide), default: 0] += 1 }
      let bytes = Double(
        self.bytes(second: second, stream: .widgetFetch) + self.bytes(second: second, stream: .appFetch))
      peakBytes = Swift.max(peakBytes, bytes * scale)
    }
    if broadcasts {
      // Rare (a broadcast channel in a second): the exact total, by value.
      totals = [:]
      var peak = (value: 0.0, second: 0)
      var sum = 0.0
      for second in 0..<secondCount {
        var devices: UInt64 = 0
        for stream in ServerStream.allCases where !stream.isFleetWide {
          devices += requests(second: second, stream: stream)
        }
        let value = Double(devices) * scale + Double(requests(second: second, stream: .broadcast))
        totals[value, default: 0] += 1
        sum += value
        if value > peak.value { peak = (value, second) }
      }
      let sorted = totals.sorted { $0.key < $1.key }
      figures.append(
        ProvisioningFigures(
          stream: "total", meanPerSecond: sum / Double(secondCount),
          p99PerSecond: CountHistogram.p99(sorted.map { ($0.key, $0.value) }, total: secondCount),
          peakPerSecond: peak.value, peakSecond: peak.second, peakBytesPerSecond: peakBytes))
    } else {
      figures.append(perDevice.figures("total", factor: scale, peakBytes: peakBytes))
    }
    for stream in ServerStream.allCases {
      var histogram = CountHistogram()
      var mostBytes = 0.0
      for second in 0..<secondCount {
        histogram.add(requests(second: second, stream: stream), second: second)
        if stream.isFetch { mostBytes = Swift.max(mostBytes, Double(bytes(second: second, stream: stream)) * scale) }
      }
      figures.append(
        histogram.figures(
          stream.name, factor: stream.isFleetWide ? 1 : scale, peakBytes: stream.isFetch ? mostBytes : nil))
    }
    return figures
  }
}

/// How many seconds had each count (small counts in an array, large ones in a table), the sum and the
/// busiest second: the mean, p99 and peak of a count series without keeping it.
struct CountHistogram {
  private var small = Array(repeating: 0, count: 4_096)
  private var large: [UInt64: Int] = [:]
  private var sum: UInt64 = 0
  private var seconds = 0
  private var peak: (count: UInt64, second: Int) = (0, 0)

  mutating func add(_ count: UInt64, second: Int) {
    if count < UInt64(small.count) { small[Int(count)] += 1 } else { large[count, default: 0] += 1 }
    sum &+= count
    seconds += 1
    if count > peak.count { peak = (count, second) }
  }

  /// The figures with every count times `factor`.
  func figures(_ name: String, factor: Double, peakBytes: Double?) -> ProvisioningFigures {
    var values: [(Double, Int)] = []
    for (count, seconds) in small.enumerated() where seconds > 0 { values.append((Double(count) * factor, seconds)) }
    for (count, seconds) in large.sorted(by: { $0.key < $1.key }) { values.append((Double(count) * factor, seconds)) }
    return ProvisioningFigures(
      stream: name, meanPerSecond: seconds > 0 ? Double(sum) * factor / Double(seconds) : .nan,
      p99PerSecond: CountHistogram.p99(values, total: seconds), peakPerSecond: Double(peak.count) * factor,
      peakSecond: peak.second, peakBytesPerSecond: peakBytes)
  }

  /// The p99 (Hyndman-Fan 7) of `total` values given as (value, how many) in ascending order.
  static func p99(_ values: [(Double, Int)], total: Int) -> Double {
    guard total > 0 else { return .nan }
    let rank = 0.99 * Double(total - 1)
    let lower = Int(rank.rounded(.down))
    let upper = Swift.min(lower + 1, total - 1)
    func value(_ index: Int) -> Double {
      var seen = 0
      for (value, count) in values {
        seen += count
        if index < seen { return value }
      }
      return values.last?.0 ?? .nan
    }
    let low = value(lower)
    return low + (rank - Double(lower)) * (value(upper) - low)
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
    guard secondCount >= 0, counts.count == secondCount * ServerStream.count, fetchBytes.count == secondCount * 2 else {
      throw reader.error("a per-second load of the wrong size")
    }
  }
}
