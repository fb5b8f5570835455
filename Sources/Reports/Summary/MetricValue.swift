/// One summary metric of one subject in one replication: a row of `replications.csv` and `sweep.csv`.
public struct MetricValue: Sendable, Equatable {
  public let metric: String
  /// The widget instance label, `device`, `widget_push`, a Live Activity id, `fleet` or `server`.
  public let widget: String
  public let unit: String
  /// NaN when the replication has nothing to measure (e.g. staleness with no views).
  public let value: Double

  public init(metric: String, widget: String, unit: String, value: Double) {
    self.metric = metric
    self.widget = widget
    self.unit = unit
    self.value = value
  }
}
