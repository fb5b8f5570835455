import WidgetModel

/// The few lines a run prints at its end: where the reports are and the headline numbers.
public enum RunSummaryText {
  /// The scenario's size and speed, the reports' folder, and per widget instance the headline metrics with
  /// their 95% confidence intervals.
  public static func text(
    configuration: ScenarioConfiguration, summary: RunSummary, events: UInt64, directory: String, seconds: Double
  ) -> String {
    let labels = configuration.instances.map(\.label)
    var lines = [
      "\(configuration.name): \(configuration.days) days x \(configuration.replications) replications, "
        + "\(labels.count) widget instances, \(events) events in \(fixed(seconds, 2)) s",
      "reports: \(directory)/ (\(RunReports.files.joined(separator: ", ")))",
      "per widget, mean over replications [95% CI]:",
    ]
    for label in labels {
      func show(_ metric: String, _ decimals: Int) -> String {
        guard let row = summary.row(metric, widget: label) else { return "-" }
        let mean = fixed(row.values.mean, decimals)
        guard let interval = row.interval else { return mean }
        return "\(mean) [\(fixed(interval.low, decimals)), \(fixed(interval.high, decimals))]"
      }
      lines.append(
        "  \(label): reloads/day \(show("reloads_per_day", 1)) (budgeted \(show("budgeted_reloads_per_day", 1))), "
          + "withheld/day \(show("requests_per_day_withheld_granted", 1)), "
          + "staleness p95 \(show("staleness_p95", 0)) s, budget exhausted on \(show("budget_exhausted_day_share", 2)) of days"
      )
    }
    return lines.joined(separator: "\n")
  }

  /// `value` rounded to `decimals` places, without Foundation; `-` when it is not finite.
  public static func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((value * scale).rounded())
    let sign = scaled < 0 ? "-" : ""
    let magnitude = scaled.magnitude
    guard decimals > 0 else { return "\(sign)\(magnitude)" }
    var fraction = String(magnitude % UInt64(scale))
    while fraction.count < decimals { fraction = "0" + fraction }
    return "\(sign)\(magnitude / UInt64(scale)).\(fraction)"
  }
}
