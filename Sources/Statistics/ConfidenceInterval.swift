import CGSL
import SimulationEngine

/// A two-sided confidence interval for a mean, from Student's t distribution.
///
/// half-width = t(1 - (1 - level) / 2, n - 1) * s / sqrt(n), with the t quantile from GSL's
/// `gsl_cdf_tdist_Pinv`. Exact for normally distributed observations, and the usual approximation for
/// replication means (which the central limit theorem makes close to normal).
public struct ConfidenceInterval: Sendable, Equatable {
  public let mean: Double
  public let halfWidth: Double
  /// The confidence level, e.g. 0.95.
  public let level: Double
  /// Number of observations the interval rests on.
  public let count: Int

  public var low: Double { mean - halfWidth }
  public var high: Double { mean + halfWidth }

  /// The interval for the mean of the values `statistics` summarises; `nil` with fewer than two values
  /// (no spread to estimate) or a level outside (0, 1).
  public init?(_ statistics: RunningStatistics, level: Double = 0.95) {
    guard statistics.count >= 2, level > 0, level < 1 else { return nil }
    let quantile = ConfidenceInterval.studentQuantile(
      probability: 1 - (1 - level) / 2, degreesOfFreedom: Double(statistics.count - 1))
    mean = statistics.mean
    halfWidth = quantile * statistics.standardError
    self.level = level
    count = statistics.count
  }

  /// The Student t quantile: the x with P(T <= x) = probability, for T with the given degrees of freedom.
  public static func studentQuantile(probability: Double, degreesOfFreedom: Double) -> Double {
    GSL.configure()
    return gsl_cdf_tdist_Pinv(probability, degreesOfFreedom)
  }

  /// Whether `value` lies inside the closed interval.
  public func contains(_ value: Double) -> Bool {
    value >= low && value <= high
  }
}
