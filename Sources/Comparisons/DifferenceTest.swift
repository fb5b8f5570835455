import CGSL
import SimulationEngine
import Statistics

/// The difference candidate - baseline of one metric's mean, its confidence interval and t-tests.
///
/// Paired (on the per-replication differences, df = n - 1) when both runs used common random numbers:
/// the same seed and the same replications, so replication r of both saw the same user and device.
/// Otherwise Welch's unequal-variance test with Welch-Satterthwaite degrees of freedom.
public struct DifferenceTest: Sendable, Equatable {
  public enum Method: String, Sendable {
    case paired
    case welch
  }

  public let method: Method
  public let baselineMean: Double
  public let candidateMean: Double
  /// Candidate mean minus baseline mean.
  public let difference: Double
  /// Standard error of the difference; 0 when every replication agrees exactly.
  public let standardError: Double
  public let degreesOfFreedom: Double
  /// Replications used on each side (pairs, for a paired test).
  public let baselineCount: Int
  public let candidateCount: Int

  /// Whether every figure is a finite number (values near the limits of a double overflow in the variance).
  public var isFinite: Bool {
    baselineMean.isFinite && candidateMean.isFinite && difference.isFinite && standardError.isFinite
      && degreesOfFreedom.isFinite
  }

  /// Two-sided p-value of "no difference".
  public var pValue: Double {
    guard standardError > 0 else { return difference == 0 ? 1 : 0 }
    return 2 * gsl_cdf_tdist_Q(abs(difference) / standardError, degreesOfFreedom)
  }

  /// The two-sided confidence interval of the difference at `level` (0.95: the 95% interval).
  public func interval(level: Double = 0.95) -> (low: Double, high: Double) {
    guard standardError > 0 else { return (difference, difference) }
    let t = gsl_cdf_tdist_Pinv(0.5 + level / 2, degreesOfFreedom)
    return (difference - t * standardError, difference + t * standardError)
  }

  /// One-sided p-value of "the candidate is worse by at most `margin`" against "worse by more" (a
  /// non-inferiority test): small when the candidate is significantly worse beyond the margin.
  public func pValue(worseBy margin: Double, direction: Gate.Direction) -> Double {
    let worsening = direction == .higherIsWorse ? difference : -difference
    guard standardError > 0 else { return worsening > margin ? 0 : 1 }
    return gsl_cdf_tdist_Q((worsening - margin) / standardError, degreesOfFreedom)
  }

  /// Paired test of matched replications (`baseline[i]` and `candidate[i]` from the same streams).
  public static func paired(baseline: [Double], candidate: [Double]) -> DifferenceTest? {
    precondition(baseline.count == candidate.count, "paired samples of different sizes")
    guard baseline.count >= 2 else { return nil }
    var differences = RunningStatistics()
    var first = RunningStatistics()
    var second = RunningStatistics()
    for (b, c) in zip(baseline, candidate) {
      differences.add(c - b)
      first.add(b)
      second.add(c)
    }
    let n = Double(baseline.count)
    return DifferenceTest(
      method: .paired, baselineMean: first.mean, candidateMean: second.mean, difference: second.mean - first.mean,
      standardError: (differences.variance / n).squareRoot(), degreesOfFreedom: n - 1, baselineCount: baseline.count,
      candidateCount: candidate.count)
  }

  /// Welch's test of two independent samples.
  public static func welch(baseline: [Double], candidate: [Double]) -> DifferenceTest? {
    guard baseline.count >= 2, candidate.count >= 2 else { return nil }
    var first = RunningStatistics()
    var second = RunningStatistics()
    for value in baseline { first.add(value) }
    for value in candidate { second.add(value) }
    let a = first.variance / Double(baseline.count)
    let b = second.variance / Double(candidate.count)
    let variance = a + b
    let denominator = a * a / Double(baseline.count - 1) + b * b / Double(candidate.count - 1)
    let degrees = denominator > 0 ? variance * variance / denominator : Double(baseline.count + candidate.count - 2)
    return DifferenceTest(
      method: .welch, baselineMean: first.mean, candidateMean: second.mean, difference: second.mean - first.mean,
      standardError: variance.squareRoot(), degreesOfFreedom: degrees, baselineCount: baseline.count,
      candidateCount: candidate.count)
  }
}
