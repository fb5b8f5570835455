/// The sums behind a count series' dispersion, fed one second at a time: half the mean squared difference
/// of adjacent seconds over the mean count (the lag-one variogram; von Neumann's successive-difference
/// estimator of a variance), at least 1. Adjacent seconds share their rate, so a rate that drifts with the
/// day adds nothing. ``DyadicRateFit/dispersion(_:skipped:)`` reads a whole series through it; a reader that
/// walks its counts for another reason feeds it as it goes.
@frozen
public struct SuccessiveDifferences: Sendable {
  @usableFromInline var squares = 0.0
  @usableFromInline var sum = 0.0
  @usableFromInline var previous = 0.0
  @usableFromInline var count = 0

  @inlinable
  public init() {}

  /// Adds the next second's count; `paired: false` leaves out its difference from the second before (one of
  /// the two is skipped).
  @inlinable @inline(__always)
  public mutating func add(_ value: Double, paired: Bool = true) {
    if count > 0 && paired {
      squares += (value - previous) * (value - previous)
      sum += value
    }
    previous = value
    count += 1
  }

  /// The variance of a second's count over its mean, at least 1 (1 with fewer than two seconds, or none
  /// with a count).
  @inlinable
  public var dispersion: Double {
    guard count > 1, sum > 0 else { return 1 }
    return Swift.max(1, squares / (2 * sum))
  }
}
