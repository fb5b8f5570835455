import Reports

/// What the servers must provision for each design of a sweep of fleets: the busiest second and the p99
/// second of requests they receive and of those they send, for the whole fleet the simulated phones stand
/// for, each with the interval it has (see ``intervalText(_:sampled:)``). The figure that decides between
/// designs is often here and in no per-phone mean: a push design's fan-out against a poll's spread fetches.
extension SweepComparison {
  /// The per-second figures: (header, metric, subject), in column order.
  static let capacityColumns: [(header: String, metric: String, subject: String)] = [
    ("received: busiest second (requests/s)", "peak_requests_per_second", "received"),
    ("received: p99 (requests/s)", "p99_requests_per_second", "received"),
    ("sent: busiest second (requests/s)", "peak_requests_per_second", "sent"),
    ("sent: p99 (requests/s)", "p99_requests_per_second", "sent"),
  ]

  /// The line above the servers' table in `sweep_compare.md`.
  static let capacityHeading =
    "Servers, per second, for the whole fleet (received: widget and app fetches, token registrations; sent: "
    + "pushes to APNs, broadcast requests; different systems, never added):"

  /// The servers' table's lines (header, rule, one per point), or none when no point is a fleet that keeps
  /// its per-second load (`fleet.devices` > 1).
  static func capacityTable(rows: [SweepSummaryRow], points: [SweepPointRow], keys: [String]) -> [String] {
    let byPoint = byPoint(rows)
    guard points.contains(where: { byPoint[$0.index]?["peak_requests_per_second\u{1F}received"] != nil }) else {
      return []
    }
    var lines = [
      "| point | \(points.contains { !$0.label.isEmpty } ? "design" : "settings") | "
        + capacityColumns.map(\.header).joined(separator: " | ") + " | interval |",
      "|---:|---|" + capacityColumns.map { _ in "---:|" }.joined() + "---|",
    ]
    for point in points {
      let figures = byPoint[point.index] ?? [:]
      let found = capacityColumns.map { figures["\($0.metric)\u{1F}\($0.subject)"] }
      let cells = found.map { row -> String in
        guard let row else { return "-" }
        return RunSummaryText.withInterval(row.mean, row.interval, abs(row.mean) >= 10 || row.mean == 0 ? 0 : 1)
      }
      // A sample's figures keep the sample's own counts times the scale as `raw_` rows: their presence says so.
      let sampled = figures["raw_peak_requests_per_second\u{1F}received"] != nil
      lines.append(
        "| \(point.index) | \(cell(name(point, keys: keys))) | " + cells.joined(separator: " | ") + " | "
          + intervalText(found.compactMap { $0 }, sampled: sampled) + " |")
    }
    return lines
  }

  /// What a point's intervals are: the 95% CI over its replications, the sample's own 95% interval with one
  /// replication of a sample, or none: counted, when one replication simulated every phone.
  static func intervalText(_ rows: [SweepSummaryRow], sampled: Bool) -> String {
    let methods = Set(rows.map(\.method))
    let replications = rows.map(\.replications).max() ?? 0
    if methods.contains(.t) || methods.contains(.logitT) {
      return "95% CI over \(replications) replications"
    }
    if methods.contains(.fleetSample) {
      return "the sample's 95% interval (one replication)"
    }
    if replications == 1 && !sampled { return "none: counted, every phone simulated (one replication)" }
    return "none"
  }

  /// Whether any of `rows` has a 95% interval over replications (not a sample's own): what the console's
  /// headers may promise.
  static func hasReplicationIntervals(_ rows: [SweepSummaryRow]) -> Bool {
    rows.contains { $0.interval != nil && $0.method != .fleetSample }
  }
}
