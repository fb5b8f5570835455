import Reports

/// One row of `sweep_summary.csv`: a metric of a subject at a point, the mean over replications with its
/// 95% confidence interval (nil with one replication, but for a figure a fleet's sample estimates, which
/// carries the sample's own interval), and how that interval was made.
public struct SweepSummaryRow: Sendable {
  public let point: Int
  public let metric: String
  public let widget: String
  public let mean: Double
  public let interval: (low: Double, high: Double)?
  public let unit: String
  /// The `ci_method` column: `t` or `logit_t` over replications, `fleet_sample`, or `none`.
  public var method: MetricInterval.Method = .none
  /// Replications with a value (the `replications` column).
  public var replications = 0
}

/// What a finished sweep prints, as `run` does for its replications: each point's headline figures per
/// widget with their 95% confidence intervals, then the best point by the sweep's objective (or the default
/// criterion).
public enum SweepHeadlines {
  /// Points printed one by one; the rest are in sweep_summary.csv.
  static let maximumPointsShown = 20

  /// The figures shown per widget: metric, label, decimals, unit after the value. Its energy is the widget's
  /// alone, and says so, in mWh/day as `run` and the point's `phone pays:` line give energy.
  static let figures: [(metric: String, label: String, decimals: Int, unit: String)] = [
    ("reloads_per_day", "reloads/day", 1, ""), ("staleness_mean", "staleness mean", 0, " s"),
    ("staleness_p95", "p95", 0, " s"), ("budget_exhausted_day_share", "budget exhausted on", 2, " of days"),
    ("mwh_per_day", "energy (widget alone)", 2, " mWh/day"),
  ]

  /// The criterion when the sweep file sets no `objective`: the lowest mean `staleness_mean` (the age of what
  /// the user saw, averaged over views) of the first widget, the freshest widget.
  public static let defaultObjective = SweepManifest.Objective(metric: "staleness_mean", widget: nil, minimize: true)

  /// `point 3 "silent push" (key=value, ...)`, or without the label when the point has none.
  static func name(_ point: SweepPointRow, keys: [String]) -> String {
    let settings = zip(keys, point.values).map { "\($0)=\($1)" }.joined(separator: ", ")
    return "point \(point.index)" + (point.label.isEmpty ? "" : " \"\(point.label)\"") + " (\(settings))"
  }

  /// The lines to print, from the summary's rows.
  public static func lines(
    rows: [SweepSummaryRow], points: [SweepPointRow], keys: [String], objective: SweepManifest.Objective? = nil
  ) -> [String] {
    var byPoint: [Int: [String: SweepSummaryRow]] = [:]
    var subjects: [String] = []
    for row in rows {
      byPoint[row.point, default: [:]]["\(row.metric)\u{1F}\(row.widget)"] = row
      if row.metric == "reloads_per_day" && !subjects.contains(row.widget) { subjects.append(row.widget) }
    }
    guard !subjects.isEmpty else { return [] }
    func label(_ point: SweepPointRow) -> String { name(point, keys: keys) }
    func phone(_ point: SweepPointRow) -> (mwh: SweepSummaryRow, battery: SweepSummaryRow?)? {
      guard let mwh = byPoint[point.index]?["phone_mwh_per_day\u{1F}device"], mwh.mean.isFinite else { return nil }
      return (mwh, byPoint[point.index]?["phone_battery_percent_per_day\u{1F}device"])
    }
    func phoneText(_ cost: (mwh: SweepSummaryRow, battery: SweepSummaryRow?)) -> String {
      "\(show(cost.mwh, 2)) mWh/day" + (cost.battery.map { ", \(show($0, 3)) % of the battery a day" } ?? "")
    }
    // A CI only where there is one: one replication per point has none.
    var lines = [
      SweepComparison.hasReplicationIntervals(rows)
        ? "per point and widget, mean over replications [95% CI]:"
        : "per point and widget (one replication per point: no confidence interval):"
    ]
    for point in points.prefix(maximumPointsShown) {
      lines.append("  \(label(point))")
      if let cost = phone(point) { lines.append("    phone pays: " + phoneText(cost)) }
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
    lines += ranking(points: points, keys: keys, phone: phone, phoneText: phoneText)
    lines += SweepPareto.lines(rows: rows, points: points, subject: subjects[0]) { point in
      point.label.isEmpty ? name(point, keys: keys) : "\"\(point.label)\" (point \(point.index))"
    }
    lines.append(
      bestPoint(byPoint: byPoint, subjects: subjects, rows: rows, points: points, keys: keys, objective: objective))
    return lines
  }

  /// The line naming the best point by `objective` (nil: ``defaultObjective``) and its figure, from the
  /// summary's rows by point and then by metric and subject; ties go to the earlier point.
  static func bestPoint(
    byPoint: [Int: [String: SweepSummaryRow]], subjects: [String], rows: [SweepSummaryRow], points: [SweepPointRow],
    keys: [String], objective: SweepManifest.Objective?
  ) -> String {
    let criterion = objective ?? defaultObjective
    // Without a widget: the first widget's (the default), or the first subject with the metric.
    let subject =
      criterion.widget
      ?? (objective == nil
        ? subjects[0] : rows.first { $0.metric == criterion.metric }?.widget ?? subjects[0])
    let candidates = points.compactMap { point -> (SweepPointRow, SweepSummaryRow)? in
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
    guard let (point, row) = best else {
      return "best point by \(rule): no point has it (see the metric and widget columns of sweep_summary.csv)"
    }
    let magnitude = abs(row.mean)
    let decimals = magnitude >= 100 ? 0 : magnitude >= 1 ? 2 : 4
    return "best point by \(rule): \(name(point, keys: keys)): \(show(row, decimals)) \(row.unit)"
  }

  /// The points by what the phone pays for each (`phone_mwh_per_day` of the device: widgets, the app's own
  /// runs, push wake-ups, radio), cheapest first, ties to the earlier point; the first 20.
  static func ranking(
    points: [SweepPointRow], keys: [String],
    phone: (SweepPointRow) -> (mwh: SweepSummaryRow, battery: SweepSummaryRow?)?,
    phoneText: ((mwh: SweepSummaryRow, battery: SweepSummaryRow?)) -> String
  ) -> [String] {
    let costed = points.compactMap { point in phone(point).map { (point, $0) } }
    guard costed.count > 1 else { return [] }
    let ranked = costed.enumerated().sorted { left, right in
      left.element.1.mwh.mean != right.element.1.mwh.mean
        ? left.element.1.mwh.mean < right.element.1.mwh.mean : left.offset < right.offset
    }.map(\.element)
    var lines = ["what the phone pays a day (widgets, the app's own runs, push wake-ups, radio), cheapest first:"]
    for (rank, (point, cost)) in ranked.prefix(maximumPointsShown).enumerated() {
      let named = point.label.isEmpty ? name(point, keys: keys) : "\"\(point.label)\" (point \(point.index))"
      lines.append("  \(rank + 1). \(named): \(phoneText(cost))")
    }
    if ranked.count > maximumPointsShown {
      lines.append("  (\(ranked.count - maximumPointsShown) more in sweep_compare.md)")
    }
    return lines
  }

  /// `mean [low, high]`, or the mean alone without an interval.
  static func show(_ row: SweepSummaryRow, _ decimals: Int) -> String {
    RunSummaryText.withInterval(row.mean, row.interval, decimals)
  }
}
