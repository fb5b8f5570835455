import Reports

/// One row of `sweep_summary.csv`: a metric of a subject at a point, the mean over replications with its
/// 95% confidence interval (nil with one replication).
public struct SweepSummaryRow: Sendable {
  public let point: Int
  public let metric: String
  public let widget: String
  public let mean: Double
  public let interval: (low: Double, high: Double)?
  public let unit: String
}

/// What a finished sweep prints, as `run` does for its replications: each point's headline figures per
/// widget with their 95% confidence intervals, then the best point by the sweep's objective (or the default
/// criterion).
public enum SweepHeadlines {
  /// Points printed one by one; the rest are in sweep_summary.csv.
  static let maximumPointsShown = 20

  /// The figures shown per widget: metric, label, decimals, unit after the value.
  static let figures: [(metric: String, label: String, decimals: Int, unit: String)] = [
    ("reloads_per_day", "reloads/day", 1, ""), ("staleness_mean", "staleness mean", 0, " s"),
    ("staleness_p95", "p95", 0, " s"), ("budget_exhausted_day_share", "budget exhausted on", 2, " of days"),
    ("joules_per_day", "energy", 1, " J/day"),
  ]

  /// The criterion when the sweep file sets no `objective`: the lowest mean `staleness_mean` (the age of what
  /// the user saw, averaged over views) of the first widget, the freshest widget.
  public static let defaultObjective = SweepManifest.Objective(metric: "staleness_mean", widget: nil, minimize: true)

  /// The lines to print, from the summary's rows.
  public static func lines(
    rows: [SweepSummaryRow], points: [(index: Int, values: [String])], keys: [String],
    objective: SweepManifest.Objective? = nil
  ) -> [String] {
    var byPoint: [Int: [String: SweepSummaryRow]] = [:]
    var subjects: [String] = []
    for row in rows {
      byPoint[row.point, default: [:]]["\(row.metric)\u{1F}\(row.widget)"] = row
      if row.metric == "reloads_per_day" && !subjects.contains(row.widget) { subjects.append(row.widget) }
    }
    guard !subjects.isEmpty else { return [] }
    func label(_ point: (index: Int, values: [String])) -> String {
      "point \(point.index) (" + zip(keys, point.values).map { "\($0)=\($1)" }.joined(separator: ", ") + ")"
    }
    var lines = ["per point and widget, mean over replications [95% CI]:"]
    for point in points.prefix(maximumPointsShown) {
      lines.append("  \(label(point))")
      for subject in subjects {
        let shown = figures.compactMap { figure -> String? in
          guard let row = byPoint[point.index]?["\(figure.metric)\u{1F}\(subject)"] else { return nil }
          return "\(figure.label) \(show(row, figure.decimals))\(figure.unit)"
        }
        if !shown.isEmpty { lines.append("    \(subject): " + shown.joined(separator: ", ")) }
      }
    }
    if points.count > maximumPointsShown {
      lines.append("  (\(points.count - maximumPointsShown) more points in sweep_summary.csv)")
    }
    let criterion = objective ?? defaultObjective
    // Without a widget: the first widget's (the default), or the first subject with the metric.
    let subject =
      criterion.widget
      ?? (objective == nil
        ? subjects[0] : rows.first { $0.metric == criterion.metric }?.widget ?? subjects[0])
    let candidates = points.compactMap { point -> ((index: Int, values: [String]), SweepSummaryRow)? in
      guard let row = byPoint[point.index]?["\(criterion.metric)\u{1F}\(subject)"], row.mean.isFinite else {
        return nil
      }
      return (point, row)
    }
    // Ties go to the earlier point, so the choice does not depend on anything but the figures.
    let best = candidates.min { left, right in
      criterion.minimize ? left.1.mean < right.1.mean : left.1.mean > right.1.mean
    }
    let rule =
      "the \(criterion.minimize ? "lowest" : "highest") \(criterion.metric) of \(subject)"
      + (objective == nil ? " (the default; set sweep.objective to choose)" : " (the sweep's objective)")
    if let (point, row) = best {
      let magnitude = abs(row.mean)
      let decimals = magnitude >= 100 ? 0 : magnitude >= 1 ? 2 : 4
      lines.append("best point by \(rule): \(label(point)): \(show(row, decimals)) \(row.unit)")
    } else {
      lines.append("best point by \(rule): no point has it (see the metric and widget columns of sweep_summary.csv)")
    }
    return lines
  }

  /// `mean [low, high]`, or the mean alone without an interval.
  static func show(_ row: SweepSummaryRow, _ decimals: Int) -> String {
    RunSummaryText.withInterval(row.mean, row.interval, decimals)
  }
}
