/// What one replication's value of a summary metric is (the `statistic` column of `summary.csv`): a mean over
/// the phones, days or views it is per, a quantile, an extreme, or a total.
///
/// The metric names that end in a statistic (`staleness_p95`, `fetch_qps_p99_minute`) keep it for compatibility;
/// this column says the same thing in one place, so a script can filter on it.
public enum SummaryStatistic: String, Sendable, CaseIterable {
  case mean
  case p50
  case p95
  case p99
  /// The largest value in the replication (the stalest view, the last device reached).
  case max
  /// The smallest value in the replication (the lowest state of charge).
  case min
  /// The busiest minute or second.
  case peak
  /// A count for the whole run (phones that have a widget).
  case total

  /// Whether the replication's value is an extreme of many: its mean over replications gets no t interval
  /// (one replication's stalest view or lowest charge is far from normal, and a few of them say little about
  /// the next). A busiest second or minute does get one: it is what a fleet is provisioned for, and each
  /// replication's is an independent draw of the same fleet's, so the interval says how well the run pins
  /// their mean.
  public var isExtreme: Bool {
    switch self {
    case .max, .min: true
    case .mean, .p50, .p95, .p99, .peak, .total: false
    }
  }
}
