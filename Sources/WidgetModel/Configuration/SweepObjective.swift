import Results

/// A sweep's criterion for its best point (`sweep.objective`): the metric of `sweep_summary.csv` to make
/// lowest (`minimize`) or highest (`maximize`), of one subject (a widget instance, `device`, `server`...) or,
/// without `widget`, of the first subject that has it. Read by the scenario layer, recorded in the sweep's
/// manifest, applied by the sweep's console lines.
public struct SweepObjective: Sendable, Equatable {
  public let metric: String
  /// nil: the first subject that has the metric.
  public let widget: String?
  public let minimize: Bool

  /// `metric` by its current name or a renamed one (``RenamedMetric``): kept by its current name.
  public init(metric: String, widget: String?, minimize: Bool) {
    self.metric = RenamedMetric.current(metric)
    self.widget = widget
    self.minimize = minimize
  }
}
