import Results
import SimulationEngine
import Statistics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The 95% confidence interval `summary.csv` (and the console, the HTML report, `sweep_summary.csv`) gives
/// for the mean of a metric over replications, respecting what the metric can be.
///
/// - A non-negative quantity gets Student's t interval with its lower bound raised to 0 when it falls
///   below (the true mean cannot be negative, so the coverage is unchanged): method `t`.
/// - A bounded quantity (a fraction in [0, 1], a percentage of charge, an hour of day) gets the t interval
///   of its logit, mapped back (the delta method: on the logit scale the standard error is
///   se / (p (1 - p)) for the mean p rescaled to [0, 1]): method `logit_t`. The interval lies inside the
///   range and is asymmetric near its ends; a mean at an end (every replication 0, say) gets [mean, mean].
/// - An extreme (a maximum, minimum or peak) gets no interval: method `none` (see ``SummaryStatistic``).
/// - Fewer than two replications: no interval, method `none`; but a fleet's per-second figure estimated from
///   a sample of its phones gets the estimate's own 95% interval (where the whole fleet's figure falls, see
///   ``SampledInterval``): method `fleet_sample`.
public struct MetricInterval: Sendable, Equatable {
  public enum Method: String, Sendable {
    case t
    case logitT = "logit_t"
    case fleetSample = "fleet_sample"
    case none
  }

  public let low: Double
  public let high: Double
  public let method: Method

  /// Replications below which the console and the HTML report warn that the intervals mean little.
  public static let fewReplications = 5

  /// The interval for the mean of `values` (one per replication); nil (method `none`) when there is none.
  public static func of(_ values: RunningStatistics, range: QuantityRange, statistic: SummaryStatistic)
    -> MetricInterval?
  {
    guard !statistic.isExtreme, let interval = ConfidenceInterval(values), interval.mean.isFinite else { return nil }
    switch range {
    case .nonNegative:
      return MetricInterval(low: Swift.max(0, interval.low), high: interval.high, method: .t)
    case .bounded(let low, let high):
      let span = high - low
      let share = (interval.mean - low) / span
      guard share > 0, share < 1 else {
        return MetricInterval(low: interval.mean, high: interval.mean, method: .logitT)
      }
      let center = logit(share)
      let spread = interval.halfWidth / span / (share * (1 - share))
      return MetricInterval(
        low: low + span * logistic(center - spread), high: low + span * logistic(center + spread), method: .logitT)
    }
  }

  /// A sample estimate's own 95% interval: method `fleet_sample`.
  public init(_ sampled: SampledInterval) {
    self.init(low: sampled.low, high: sampled.high, method: .fleetSample)
  }

  init(low: Double, high: Double, method: Method) {
    self.low = low
    self.high = high
    self.method = method
  }

  static func logit(_ p: Double) -> Double { log(p / (1 - p)) }
  static func logistic(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
}
