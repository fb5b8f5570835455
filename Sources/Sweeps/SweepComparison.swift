import Reports

/// The table a design review wants from a sweep: one row per point (its label, or its settings without one),
/// what the phone pays a day (`phone_mwh_per_day`, `phone_battery_percent_per_day`: widgets, the app's own
/// runs, push wake-ups, radio), how stale each widget was at views, and what one phone asks of the servers a
/// day (requests they receive apart from pushes they send), means with 95% CIs, in point order; and for a
/// sweep of fleets, what the servers must provision per second for the whole fleet (``capacityTable``).
/// Written as `sweep_compare.md` (Markdown: it pastes into a review, an issue or a wiki) and printed after
/// the sweep.
public enum SweepComparison {
  public static let file = "sweep_compare.md"

  /// The file: the phone's table and, for fleets, the servers' per-second table under its heading; empty when
  /// no point has figures.
  public static func markdown(rows: [SweepSummaryRow], points: [SweepPointRow], keys: [String]) -> String {
    let phone = phoneTable(rows: rows, points: points, keys: keys)
    guard !phone.isEmpty else { return "" }
    let capacity = capacityTable(rows: rows, points: points, keys: keys)
    let servers = capacity.isEmpty ? [] : ["", capacityHeading, ""] + capacity
    return (phone + servers).joined(separator: "\n") + "\n"
  }

  /// The rows by point, then by metric and subject.
  static func byPoint(_ rows: [SweepSummaryRow]) -> [Int: [String: SweepSummaryRow]] {
    var byPoint: [Int: [String: SweepSummaryRow]] = [:]
    for row in rows { byPoint[row.point, default: [:]]["\(row.metric)\u{1F}\(row.widget)"] = row }
    return byPoint
  }

  /// The point's label, or its settings without one.
  static func name(_ point: SweepPointRow, keys: [String]) -> String {
    point.label.isEmpty ? zip(keys, point.values).map { "\($0)=\($1)" }.joined(separator: ", ") : point.label
  }

  /// What one phone pays and asks, per point: the table's lines (header, rule, one per point); none when no
  /// point has figures.
  static func phoneTable(rows: [SweepSummaryRow], points: [SweepPointRow], keys: [String]) -> [String] {
    let byPoint = byPoint(rows)
    var widgets: [String] = []
    for row in rows where row.metric == "reloads_per_day" && !widgets.contains(row.widget) {
      widgets.append(row.widget)
    }
    guard !byPoint.isEmpty else { return [] }
    // (header, metric, subject, decimals)
    var columns: [(String, String, String, Int)] = [
      ("phone mWh/day", "phone_mwh_per_day", "device", 2),
      ("% battery/day", "phone_battery_percent_per_day", "device", 3),
    ]
    for widget in widgets {
      let of = widgets.count > 1 ? " of \(widget)" : ""
      columns += [
        ("staleness mean\(of) (s)", "staleness_mean", widget, 0),
        ("staleness p95\(of) (s)", "staleness_p95", widget, 0),
      ]
    }
    columns += [
      ("server requests received/phone/day", "requests_received_per_device_per_day", "server", 1),
      ("pushes sent/phone/day", "pushes_sent_per_device_per_day", "server", 1),
    ]
    let labelled = points.contains { !$0.label.isEmpty }
    var lines = [
      "| point | \(labelled ? "design" : "settings") | " + columns.map(\.0).joined(separator: " | ") + " |",
      "|---:|---|" + columns.map { _ in "---:|" }.joined(),
    ]
    for point in points {
      let cells = columns.map { column -> String in
        guard let row = byPoint[point.index]?["\(column.1)\u{1F}\(column.2)"] else { return "-" }
        return RunSummaryText.withInterval(row.mean, row.interval, column.3)
      }
      lines.append("| \(point.index) | \(cell(name(point, keys: keys))) | " + cells.joined(separator: " | ") + " |")
    }
    return lines
  }

  /// A cell's text with `|` escaped and line breaks as spaces, so it stays one cell of the table.
  static func cell(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "|": escaped += "\\|"
      case "\n", "\r", "\r\n": escaped += " "
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
