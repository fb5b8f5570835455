import WidgetModel

extension SweepObjective {
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
