import WidgetModel

/// The warnings a run prints when a widget mostly shows its placeholder or its builds run out of time every
/// day: such a design is broken, whatever its other figures say (staleness counts the placeholder views at
/// the age of the last good content, but a reader should not have to work that out).
public enum PlaceholderWarning {
  /// The share of a widget's views on the placeholder above which the run warns: a working widget shows it
  /// only in the seconds between being added and its first build.
  public static let highShare = 0.05
  /// Builds a day that run out of time at or above which the run warns.
  public static let dailyTimeouts = 1.0

  /// One warning per widget instance of `summary` that crosses either line.
  public static func warnings(_ configuration: ScenarioConfiguration, _ summary: RunSummary) -> [String] {
    configuration.instances.compactMap { instance in
      let label = instance.label
      let share = summary.row("placeholder_view_share", widget: label)?.values.mean ?? 0
      let timeouts = summary.row("requests_per_day_timeout", widget: label)?.values.mean ?? 0
      guard share >= highShare || timeouts >= dailyTimeouts else { return nil }
      let limit = configuration.widgets[instance.widgetIndex].build.timeLimit
      return "\(label): \(RunSummaryText.fixed(100 * share, 1))% of views found the placeholder and "
        + "\(RunSummaryText.fixed(timeouts, 1)) builds a day ran past build.time_limit (\(RunSummaryText.fixed(limit.seconds, 1)) s): a broken "
        + "design, whatever its other figures; staleness counts each placeholder view at the age of the last "
        + "good content. Check the build's fetch size and CPU time against the limit"
    }
  }
}
