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
/// Dense arrays over time, not over devices: a fleet of any size takes the same memory (36 bytes per
/// second of the run), and devices add their requests in any order to the same integers. Kept for fleets
/// only; a single device's busiest second is one or two requests.
public struct ServerSeconds: Sendable, TimeSeries {
  /// Seconds covered: the run's UTC days (the ±14 h margins of the per-minute series are left out).
  public private(set) var secondCount: Int
  /// By `second * ServerStream.count + stream`.
  private var counts: [UInt32]
  /// By `second * 2 + (0: widget fetch, 1: app fetch)`, saturating (4 GB in one simulated second).
  private var fetchBytes: [UInt32]

  public init() {
    secondCount = 0
    counts = []
    fetchBytes = []
  }

  init(days: Int) {
    secondCount = days * 86_400
    counts = Array(repeating: 0, count: secondCount * ServerStream.count)
    fetchBytes = Array(repeating: 0, count: secondCount * 2)
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
    counts[second * ServerStream.count + stream.rawValue] &+= 1
    guard stream.isFetch, amount > 0 else { return }
    let cell = second * 2 + (stream == .widgetFetch ? 0 : 1)
    let added = UInt32(clamping: Int64(clampedNearest: amount))
    let (sum, overflow) = fetchBytes[cell].addingReportingOverflow(added)
    fetchBytes[cell] = overflow ? .max : sum
  }

  /// Requests of `stream` in second `second` (since 00:00 UTC of day 0).
  public func requests(second: Int, stream: ServerStream) -> UInt32 {
    counts[second * ServerStream.count + stream.rawValue]
  }

  /// Bytes fetched in second `second` by widget fetches or app fetches.
  public func bytes(second: Int, stream: ServerStream) -> UInt32 {
    precondition(stream.isFetch, "bytes are kept for fetches")
    return fetchBytes[second * 2 + (stream == .widgetFetch ? 0 : 1)]
  }

  mutating func merge(_ other: ServerSeconds) {
    precondition(secondCount == other.secondCount, "merged per-second loads of different runs")
    counts.withUnsafeMutableBufferPointer { mine in
      other.counts.withUnsafeBufferPointer { theirs in
        for index in mine.indices { mine[index] &+= theirs[index] }
      }
    }
    fetchBytes.withUnsafeMutableBufferPointer { mine in
      other.fetchBytes.withUnsafeBufferPointer { theirs in
        for index in mine.indices {
          let (sum, overflow) = mine[index].addingReportingOverflow(theirs[index])
          mine[index] = overflow ? .max : sum
        }
      }
    }
  }

  mutating func reset() {
    counts.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    fetchBytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
  }

  mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, secondCount > 0 else { return }
    let seconds = days * 86_400
    counts.removeFirst(seconds * ServerStream.count)
    fetchBytes.removeFirst(seconds * 2)
    secondCount -= seconds
  }

  /// Bytes per second kept per day of the run.
  static let bytesPerDay = 86_400 * (ServerStream.count * 4 + 2 * 4)
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
  /// (broadcast requests are the fleet's already). Empty when seconds are not kept.
  public func provisioning(scale: Double) -> [ProvisioningFigures] {
    guard secondCount > 0 else { return [] }
    var figures: [ProvisioningFigures] = []
    var total = Array(repeating: 0.0, count: secondCount)
    var totalBytes = Array(repeating: 0.0, count: secondCount)
    var series = Array(repeating: 0.0, count: secondCount)
    for stream in ServerStream.allCases {
      let factor = stream.isFleetWide ? 1 : scale
      for second in 0..<secondCount {
        let value = Double(counts[second * ServerStream.count + stream.rawValue]) * factor
        series[second] = value
        total[second] += value
      }
      var peakBytes: Double?
      if stream.isFetch {
        var most = 0.0
        for second in 0..<secondCount {
          let bytes = Double(fetchBytes[second * 2 + (stream == .widgetFetch ? 0 : 1)]) * scale
          totalBytes[second] += bytes
          most = Swift.max(most, bytes)
        }
        peakBytes = most
      }
      figures.append(ServerSeconds.figures(stream.name, series, peakBytes: peakBytes))
    }
    figures.insert(ServerSeconds.figures("total", total, peakBytes: totalBytes.max() ?? 0), at: 0)
    return figures
  }

  /// Mean, p99 (Hyndman-Fan 7, over every second, zeros included) and peak of one series.
  static func figures(_ name: String, _ series: [Double], peakBytes: Double?) -> ProvisioningFigures {
    var sum = 0.0
    var peak = 0.0
    var peakSecond = 0
    var nonZero: [Double] = []
    for (second, value) in series.enumerated() {
      sum += value
      if value > peak {
        peak = value
        peakSecond = second
      }
      if value != 0 { nonZero.append(value) }
    }
    nonZero.sort()
    let zeros = series.count - nonZero.count
    func value(_ index: Int) -> Double { index < zeros ? 0 : nonZero[index - zeros] }
    let rank = 0.99 * Double(series.count - 1)
    let lower = Int(rank.rounded(.down))
    let upper = Swift.min(lower + 1, series.count - 1)
    let p99 = value(lower) + (rank - Double(lower)) * (value(upper) - value(lower))
    return ProvisioningFigures(
      stream: name, meanPerSecond: sum / Double(series.count), p99PerSecond: p99, peakPerSecond: peak,
      peakSecond: peakSecond, peakBytesPerSecond: peakBytes)
  }
}
