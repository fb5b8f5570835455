/// Count, mean, variance, minimum and maximum of a stream of values, in constant memory.
///
/// Welford's update (Welford 1962; Knuth TAOCP vol. 2, 4.2.2) keeps the mean and the sum of squared
/// deviations without the cancellation of the naive sum-of-squares formula. Two summaries merge with Chan,
/// Golub & LeVeque's pairwise formula, which is what lets per-device or per-thread summaries combine.
/// (GSL's `gsl_rstat` computes the same but cannot merge, and lives on the heap.)
///
/// Merging is exact in real arithmetic but not in floating point: to get byte-identical reports, merge
/// in a fixed order (device index order, say), not in completion order.
public struct RunningStatistics: Sendable, Equatable {
  /// Number of values added.
  @inlinable public var count: Int { storedCount }
  /// Arithmetic mean; 0 when empty.
  @inlinable public var mean: Double { storedMean }
  /// Sum of squared deviations from the mean.
  @inlinable public var sumOfSquaredDeviations: Double { storedSquares }
  /// Smallest value added; +infinity when empty.
  @inlinable public var minimum: Double { storedMinimum }
  /// Largest value added; -infinity when empty.
  @inlinable public var maximum: Double { storedMaximum }

  @usableFromInline var storedCount = 0
  @usableFromInline var storedMean = 0.0
  @usableFromInline var storedSquares = 0.0
  @usableFromInline var storedMinimum = Double.infinity
  @usableFromInline var storedMaximum = -Double.infinity

  public init() {}

  /// A summary with the given moments, for values summed exactly elsewhere (integer accumulators) and
  /// turned into statistics only when read.
  public init(count: Int, mean: Double, sumOfSquaredDeviations: Double, minimum: Double, maximum: Double) {
    storedCount = count
    storedMean = mean
    storedSquares = sumOfSquaredDeviations
    storedMinimum = minimum
    storedMaximum = maximum
  }

  /// A summary of `values`.
  public init<Values: Sequence<Double>>(_ values: Values) {
    for value in values { add(value) }
  }

  /// Adds one observation.
  @inlinable
  public mutating func add(_ value: Double) {
    storedCount += 1
    let delta = value - storedMean
    storedMean += delta / Double(storedCount)
    storedSquares += delta * (value - storedMean)
    storedMinimum = Swift.min(storedMinimum, value)
    storedMaximum = Swift.max(storedMaximum, value)
  }

  /// Folds another summary into this one, as if its values had been added here.
  public mutating func merge(_ other: RunningStatistics) {
    guard other.count > 0 else { return }
    guard count > 0 else {
      self = other
      return
    }
    let total = count + other.count
    let delta = other.mean - mean
    storedMean += delta * Double(other.count) / Double(total)
    storedSquares +=
      other.sumOfSquaredDeviations + delta * delta * Double(count) * Double(other.count) / Double(total)
    storedCount = total
    storedMinimum = Swift.min(minimum, other.minimum)
    storedMaximum = Swift.max(maximum, other.maximum)
  }

  /// The unbiased sample variance (divisor n - 1); NaN with fewer than two values.
  public var variance: Double {
    count > 1 ? sumOfSquaredDeviations / Double(count - 1) : .nan
  }

  /// The sample standard deviation; NaN with fewer than two values.
  public var standardDeviation: Double { variance.squareRoot() }

  /// The standard error of the mean, s / sqrt(n); NaN with fewer than two values.
  public var standardError: Double { (variance / Double(count)).squareRoot() }
}
