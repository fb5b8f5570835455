import Results
import SimulationEngine
import Statistics

extension RunSummary {
  /// What one replication's value of each metric is, by name: for files that carry only the name and unit
  /// (`sweep_summary.csv`, `replications.csv`).
  static let statistics: [String: SummaryStatistic] = {
    let all =
      instanceMetrics + burstMetrics + installedMetrics(scale: 1) + energyMetrics + deviceMetrics + pushMetrics
      + activityMetrics + appMetrics + fleetMetrics + deviceGroupMetrics + serverMetrics(scale: 1)
      + provisioningMetrics(bytes: true, sampled: true) + eventMetrics
    return Dictionary(all.map { ($0.name, $0.statistic) }, uniquingKeysWith: { first, _ in first })
  }()

  /// The 95% interval of a metric known by name and unit (see ``MetricInterval``); an unknown name is taken
  /// for a mean.
  public static func interval(of values: RunningStatistics, metric: String, unit: String) -> MetricInterval? {
    MetricInterval.of(values, range: QuantityRange(unit: unit), statistic: statistics[metric] ?? .mean)
  }

  /// The same, for a figure that one replication may have estimated from a sample of its fleet: with a single
  /// replication and `sampled` (that replication's estimate), the estimate's own interval (`fleet_sample`),
  /// as `summary.csv` gives it; otherwise ``interval(of:metric:unit:)``.
  public static func interval(
    of values: RunningStatistics, metric: String, unit: String, sampled: SampledInterval?
  ) -> MetricInterval? {
    if values.count == 1, let sampled { return MetricInterval(sampled) }
    return interval(of: values, metric: metric, unit: unit)
  }
}
