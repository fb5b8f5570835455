/// A sweep's criterion for its best point (`sweep.objective`): the metric of `sweep_summary.csv` to make
/// lowest (`minimize`) or highest (`maximize`), of one subject (a widget instance, `device`, `server`...) or,
/// without `widget`, of the first subject that has it.
public struct SweepObjective: Sendable, Equatable {
  public let metric: String
  public let widget: String?
  public let minimize: Bool

  public init(metric: String, widget: String?, minimize: Bool) {
    self.metric = metric
    self.widget = widget
    self.minimize = minimize
  }

  /// Reads `{minimize: METRIC}` or `{maximize: METRIC}`, with an optional `widget`.
  static func decode(_ value: YAMLValue) throws(ScenarioError) -> SweepObjective {
    var reader = try value.mapping()
    let minimize = try reader.optional("minimize")?.string()
    let maximize = try reader.optional("maximize")?.string()
    let widget = try reader.optional("widget")?.string()
    try reader.finish()
    switch (minimize, maximize) {
    case (let metric?, nil): return SweepObjective(metric: metric, widget: widget, minimize: true)
    case (nil, let metric?): return SweepObjective(metric: metric, widget: widget, minimize: false)
    case (nil, nil):
      throw value.error("expected minimize: METRIC or maximize: METRIC (a metric of summary.csv, e.g. staleness_p95)")
    default: throw value.error("give minimize or maximize, not both")
    }
  }
}
