import Results

/// One summary metric of one subject in one replication: a row of `replications.csv` and `sweep.csv`.
public struct MetricValue: Sendable, Equatable {
  public let metric: String
  /// The widget instance label, `device`, `widget_push`, a Live Activity id, `fleet` or `server`.
  public let widget: String
  public let unit: String
  /// NaN when the replication has nothing to measure (e.g. staleness with no views).
  public let value: Double
  /// For a fleet's per-second figure estimated from a sample of its phones: the estimate's own 95% interval
  /// (where the whole fleet's figure falls), which a sweep of one replication per point reports as the
  /// figure's interval (`fleet_sample`). Nil for every figure that is counted.
  public let sampled: SampledInterval?

  public init(metric: String, widget: String, unit: String, value: Double, sampled: SampledInterval? = nil) {
    self.metric = metric
    self.widget = widget
    self.unit = unit
    self.value = value
    self.sampled = sampled
  }
}
