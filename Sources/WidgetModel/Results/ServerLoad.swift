import SimulationEngine

/// What the app's servers see, per UTC minute: fetch requests and their bytes, pushes sent and delivered.
///
/// A device's local clock runs `offset` ahead of UTC (its time zone); local time t is UTC minute
/// `(t - offset) / 1 min`. Offsets are limited to ±14 h, so the minutes cover day 0 00:00 UTC minus 14 h to
/// the last day plus 14 h. Counts are integers: any number of devices add up the same way in any order.
public struct ServerLoad: Sendable, Accumulator {
  /// The first minute covered, relative to day 0 00:00 UTC.
  public static let firstMinute = -14 * 60
  public let minuteCount: Int
  public private(set) var fetches: [Int64]
  public private(set) var bytes: [Int128]
  public private(set) var pushesSent: [Int64]
  public private(set) var pushesDelivered: [Int64]

  /// Largest time-zone offset a device may have, either way.
  public static let maximumOffset = SimDuration.hours(14)

  /// No minutes at all (a placeholder until a shape is known).
  init() {
    minuteCount = 0
    fetches = []
    bytes = []
    pushesSent = []
    pushesDelivered = []
  }

  init(days: Int) {
    minuteCount = days * 1_440 + 2 * 14 * 60
    fetches = Array(repeating: 0, count: minuteCount)
    bytes = Array(repeating: 0, count: minuteCount)
    pushesSent = Array(repeating: 0, count: minuteCount)
    pushesDelivered = Array(repeating: 0, count: minuteCount)
  }

  /// Position of the UTC minute of local time `time` on a device `offset` ahead of UTC.
  @inlinable
  static func slot(_ time: SimTime, offset: SimDuration) -> Int {
    // Shifted by 14 h so it is never negative for a clamped offset: division then floors.
    let shifted = time.microseconds - offset.microseconds - Int64(ServerLoad.firstMinute) * 60_000_000
    return shifted >= 0 ? Int(shifted / 60_000_000) : -1
  }

  mutating func recordFetch(bytes amount: Double, at time: SimTime, offset: SimDuration) {
    let slot = ServerLoad.slot(time, offset: offset)
    guard slot >= 0 && slot < minuteCount else { return }
    fetches[slot] += 1
    bytes[slot] += Int128(Int64(clampedNearest: amount))
  }

  mutating func recordPush(delivered: Bool, at time: SimTime, offset: SimDuration) {
    let slot = ServerLoad.slot(time, offset: offset)
    guard slot >= 0 && slot < minuteCount else { return }
    if delivered { pushesDelivered[slot] += 1 } else { pushesSent[slot] += 1 }
  }

  mutating func reset() {
    fetches.reset()
    bytes.reset()
    pushesSent.reset()
    pushesDelivered.reset()
  }

  mutating func merge(_ other: ServerLoad) {
    fetches.merge(other.fetches)
    bytes.merge(other.bytes)
    pushesSent.merge(other.pushesSent)
    pushesDelivered.merge(other.pushesDelivered)
  }
}

/// Per-device figures across a fleet: exact sums for means, sketches for quantiles (merging is exact).
public struct DeviceDistributions: Sendable {
  /// One figure per device.
  public struct Figure: Sendable {
    /// Sum over devices, in millionths.
    var sumMicro: Int128 = 0
    public private(set) var count = 0
    public private(set) var quantiles = QuantileSketch()

    mutating func add(_ value: Double) {
      sumMicro += Int128(Int64(clampedNearest: value * 1e6))
      count += 1
      quantiles.add(Swift.max(0, value))
    }

    mutating func merge(_ other: Figure) {
      sumMicro += other.sumMicro
      count += other.count
      quantiles.merge(other.quantiles)
    }

    public var mean: Double { count > 0 ? Double(sumMicro) / 1e6 / Double(count) : .nan }
  }

  /// Reloads that ran per day, all widgets of the device.
  public internal(set) var reloadsPerDay = Figure()
  /// The device's staleness p95 in seconds over all its widgets' views.
  public internal(set) var stalenessP95 = Figure()
  /// Joules per day its widgets, pushes and Live Activities cost.
  public internal(set) var joulesPerDay = Figure()

  mutating func merge(_ other: DeviceDistributions) {
    reloadsPerDay.merge(other.reloadsPerDay)
    stalenessP95.merge(other.stalenessP95)
    joulesPerDay.merge(other.joulesPerDay)
  }
}
