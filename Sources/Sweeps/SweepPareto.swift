import Reports

/// The designs on cost against staleness: each point's phone cost (`phone_mwh_per_day` of `device`) and
/// staleness (`staleness_mean` of the first widget), and which are on the Pareto front: no other point is
/// at most as dear and at most as stale, and better on one. Ranking by cost alone puts the stalest design
/// first; the front is the set a design review chooses from, each trading freshness for battery.
public enum SweepPareto {
  /// One point's two figures, with their rows (for the intervals).
  public struct Entry: Sendable {
    public let point: SweepPointRow
    public let cost: SweepSummaryRow
    public let staleness: SweepSummaryRow
    /// Whether no other point dominates it (on the means).
    public let onFront: Bool
  }

  /// The points that have both figures, cheapest first (ties to the earlier point), each marked on or off
  /// the front; empty when fewer than two have them.
  public static func entries(rows: [SweepSummaryRow], points: [SweepPointRow], subject: String) -> [Entry] {
    var cost: [Int: SweepSummaryRow] = [:]
    var staleness: [Int: SweepSummaryRow] = [:]
    for row in rows where row.mean.isFinite {
      if row.metric == "phone_mwh_per_day" && row.widget == "device" { cost[row.point] = row }
      if row.metric == "staleness_mean" && row.widget == subject { staleness[row.point] = row }
    }
    let both = points.compactMap { point -> (SweepPointRow, SweepSummaryRow, SweepSummaryRow)? in
      guard let c = cost[point.index], let s = staleness[point.index] else { return nil }
      return (point, c, s)
    }
    guard both.count > 1 else { return [] }
    let front = ParetoFront.members(both.map { ($0.1.mean, $0.2.mean) })
    let entries = zip(both, front).map { entry, onFront in
      Entry(point: entry.0, cost: entry.1, staleness: entry.2, onFront: onFront)
    }
    return entries.enumerated().sorted { left, right in
      left.element.cost.mean != right.element.cost.mean
        ? left.element.cost.mean < right.element.cost.mean : left.offset < right.offset
    }.map(\.element)
  }

  /// The console's short table: cheapest first, `*` on the front, each figure with its interval.
  static func lines(
    rows: [SweepSummaryRow], points: [SweepPointRow], subject: String, name: (SweepPointRow) -> String
  ) -> [String] {
    let entries = entries(rows: rows, points: points, subject: subject)
    guard !entries.isEmpty else { return [] }
    var lines = [
      "cost against staleness (* on the Pareto front: no other point is as cheap and as fresh, and better on "
        + "one; choose among them), cheapest first:"
    ]
    for entry in entries.prefix(SweepHeadlines.maximumPointsShown) {
      lines.append(
        "  \(entry.onFront ? "*" : " ") \(name(entry.point)): \(SweepHeadlines.show(entry.cost, 2)) mWh/day, "
          + "staleness mean of \(subject) \(SweepHeadlines.show(entry.staleness, 0)) s")
    }
    if entries.count > SweepHeadlines.maximumPointsShown {
      lines.append("  (\(entries.count - SweepHeadlines.maximumPointsShown) more in sweep_summary.csv)")
    }
    return lines
  }
}
