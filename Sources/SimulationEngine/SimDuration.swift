/// A length of simulated time, in whole microseconds (the resolution of ``SimTime``).
public struct SimDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Microseconds.
  public var microseconds: Int64

  /// The longest duration a conversion from seconds produces: 2^62 µs, about 146,000 years.
  ///
  /// Draws from heavy-tailed distributions can be arbitrarily large; saturating here keeps
  /// `SimTime + SimDuration` far from `Int64` overflow for any time a simulation can reach.
  @inlinable public static var longest: SimDuration { SimDuration(microseconds: 1 << 62) }

  @inlinable public static var zero: SimDuration { SimDuration(microseconds: 0) }

  @inlinable
  public init(microseconds: Int64) {
    self.microseconds = microseconds
  }

  /// The duration nearest to `seconds` (halves away from zero), saturated at ±``longest``. NaN maps to zero.
  @inlinable @inline(__always)
  public init(seconds: Double) {
    let micros = seconds * 1e6
    let limit = Double(SimDuration.longest.microseconds)
    if micros >= limit {
      self.microseconds = SimDuration.longest.microseconds
    } else if micros <= -limit {
      self.microseconds = -SimDuration.longest.microseconds
    } else if micros.isNaN {
      self.microseconds = 0
    } else {
      self.microseconds = Int64(nearest: micros)
    }
  }

  @inlinable public static func microseconds(_ value: Int64) -> SimDuration { SimDuration(microseconds: value) }
  @inlinable public static func milliseconds(_ value: Int64) -> SimDuration { SimDuration(microseconds: value * 1_000) }
  @inlinable public static func seconds(_ value: Int64) -> SimDuration { SimDuration(microseconds: value * 1_000_000) }
  @inlinable public static func minutes(_ value: Int64) -> SimDuration { SimDuration(microseconds: value * 60_000_000) }
  @inlinable public static func hours(_ value: Int64) -> SimDuration {
    SimDuration(microseconds: value * 3_600_000_000)
  }
  @inlinable public static func days(_ value: Int64) -> SimDuration {
    SimDuration(microseconds: value * 86_400_000_000)
  }

  /// The duration in seconds, for reports and energy arithmetic.
  @inlinable
  public var seconds: Double { Double(microseconds) / 1e6 }

  @inlinable
  public static func < (lhs: SimDuration, rhs: SimDuration) -> Bool {
    lhs.microseconds < rhs.microseconds
  }

  @inlinable
  public static func + (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
    SimDuration(microseconds: lhs.microseconds + rhs.microseconds)
  }

  @inlinable
  public static func - (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
    SimDuration(microseconds: lhs.microseconds - rhs.microseconds)
  }

  /// `d` for whole days, else `h`, `m`, `s` with the largest unit that divides it, else microseconds.
  public var description: String {
    let units: [(Int64, String)] = [
      (86_400_000_000, "d"), (3_600_000_000, "h"), (60_000_000, "m"), (1_000_000, "s"), (1_000, "ms"),
    ]
    if microseconds == 0 { return "0s" }
    for (size, name) in units where microseconds % size == 0 {
      return "\(microseconds / size)\(name)"
    }
    return "\(microseconds)us"
  }
}
