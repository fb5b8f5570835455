import SimulationEngine

/// A local clock time, as an offset from midnight.
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let sinceMidnight: SimDuration

  /// `hours` 0...23, `minutes` 0...59.
  public init(hours: Int, minutes: Int) {
    precondition((0..<24).contains(hours) && (0..<60).contains(minutes), "invalid time of day \(hours):\(minutes)")
    sinceMidnight = .minutes(Int64(hours * 60 + minutes))
  }

  /// `offset` past midnight, wrapped into one day.
  init(sinceMidnight offset: SimDuration) {
    let day = SimDuration.day.microseconds
    sinceMidnight = SimDuration(microseconds: ((offset.microseconds % day) + day) % day)
  }

  /// This clock time moved by `shift` either way, wrapped around midnight.
  func shifted(by shift: SimDuration) -> TimeOfDay { TimeOfDay(sinceMidnight: sinceMidnight + shift) }

  public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.sinceMidnight < rhs.sinceMidnight }

  /// The first time strictly after `now` at which the local clock shows this time (day 0 starts at midnight).
  func next(after now: SimTime) -> SimTime {
    let at = now - now.sinceMidnight + sinceMidnight
    return at > now ? at : at + .day
  }

  public var description: String {
    let minutes = Int(sinceMidnight.microseconds / 60_000_000)
    let hours = minutes / 60
    let rest = minutes % 60
    return "\(hours < 10 ? "0" : "")\(hours):\(rest < 10 ? "0" : "")\(rest)"
  }
}

/// The daily window in which the user sleeps, `[from, to)`, possibly across midnight.
public struct SleepWindow: Sendable, Hashable {
  public var from: TimeOfDay
  public var to: TimeOfDay

  public init(from: TimeOfDay, to: TimeOfDay) {
    self.from = from
    self.to = to
  }

  /// Whether `time` (since the start of the simulation, day 0 starting at midnight) is inside the window.
  public func contains(_ time: SimTime) -> Bool {
    let clock = SimDuration(microseconds: time.microseconds % SimDuration.days(1).microseconds)
    if from.sinceMidnight <= to.sinceMidnight {
      return clock >= from.sinceMidnight && clock < to.sinceMidnight
    }
    return clock >= from.sinceMidnight || clock < to.sinceMidnight
  }

  /// Hours awake per day.
  public var awakeHours: Double {
    24 - asleepHours
  }

  /// Hours asleep per day.
  public var asleepHours: Double {
    var length = to.sinceMidnight.seconds - from.sinceMidnight.seconds
    if length < 0 { length += 86_400 }
    return length / 3_600
  }

  /// The share of clock hour `hour` (0...23) spent awake, at minute resolution.
  public func awakeFraction(ofHour hour: Int) -> Double {
    Double(60 - minutesInside(hour: hour)) / 60
  }

  /// How many minutes of clock hour `hour` (0...23) start inside the window: the count of ``contains(_:)``
  /// at each minute's first instant, from the window's ends rather than 60 tests (a device's setup asks for
  /// every hour of three windows, and for every hour of each widget's expected views).
  public func minutesInside(hour: Int) -> Int {
    precondition((0..<24).contains(hour), "clock hour \(hour)")
    let (first, last) = (hour * 60, hour * 60 + 60)
    // Minute m starts inside [from, to) when m >= the first minute starting at or after `from`, and
    // m < the first starting at or after `to`.
    let (fromMinute, toMinute) = (SleepWindow.firstMinute(atOrAfter: from), SleepWindow.firstMinute(atOrAfter: to))
    func among(_ lower: Int, _ upper: Int) -> Int { Swift.max(0, Swift.min(last, upper) - Swift.max(first, lower)) }
    if from.sinceMidnight <= to.sinceMidnight { return among(fromMinute, toMinute) }
    return among(fromMinute, 24 * 60) + among(0, toMinute)  // across midnight: the two ends of the day
  }

  /// The first whole minute of the day starting at or after `time`.
  private static func firstMinute(atOrAfter time: TimeOfDay) -> Int {
    let minute = SimDuration.minutes(1).microseconds
    return Int((time.sinceMidnight.microseconds + minute - 1) / minute)
  }
}
