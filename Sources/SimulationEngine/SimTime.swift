/// A point in simulated time, in whole microseconds since the start of the simulation.
///
/// One resolution for the whole simulator: 1 µs in an `Int64`. Integer ticks compare exactly (two events
/// scheduled for "07:00" are at the same time, not 1e-12 apart) and never drift, and `Int64` microseconds
/// span about 292,000 years, so 30 days of simulated time use a tiny fraction of the range.
public struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Microseconds since the start of the simulation.
  public var microseconds: Int64

  /// The start of the simulation.
  @inlinable public static var zero: SimTime { SimTime(microseconds: 0) }

  @inlinable
  public init(microseconds: Int64) {
    self.microseconds = microseconds
  }

  /// Seconds since the start of the simulation, for reports.
  @inlinable
  public var seconds: Double { Double(microseconds) / 1e6 }

  @inlinable
  public static func < (lhs: SimTime, rhs: SimTime) -> Bool {
    lhs.microseconds < rhs.microseconds
  }

  @inlinable
  public static func + (lhs: SimTime, rhs: SimDuration) -> SimTime {
    SimTime(microseconds: lhs.microseconds + rhs.microseconds)
  }

  @inlinable
  public static func - (lhs: SimTime, rhs: SimDuration) -> SimTime {
    SimTime(microseconds: lhs.microseconds - rhs.microseconds)
  }

  @inlinable
  public static func - (lhs: SimTime, rhs: SimTime) -> SimDuration {
    SimDuration(microseconds: lhs.microseconds - rhs.microseconds)
  }

  public var description: String { SimDuration(microseconds: microseconds).description }
}
