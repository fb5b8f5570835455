import Reports

/// The tables of report.html: a run's summary (every metric with its 95% CI, one table per subject) and a
/// sweep's points with their headline metrics.
enum SummaryTables {
  static func run(directory: String) throws(CSVTable.ReadError) -> String {
    let table = try CSVTable(path: "\(directory)/summary.csv")
    let metric = try table.column("metric")
    let widget = try table.column("widget")
    let mean = try table.column("mean")
    let low = try table.column("ci95_low")
    let high = try table.column("ci95_high")
    let unit = try table.column("unit")
    // Columns a report of an older widgetsim may lack.
    let method = try? table.column("ci_method")
    let replications = try? table.column("replications")
    var subjects: [String] = []
    for row in table.rows where !subjects.contains(row[widget]) { subjects.append(row[widget]) }
    var html = ""
    if let replications, let count = table.rows.first.flatMap({ Int($0[replications]) }),
      let warning = RunSummaryText.fewReplicationsWarning(count)
    {
      html += "<p class=\"warning\">\(HTMLText.escape(warning))</p>\n"
    }
    for (index, subject) in subjects.enumerated() {
      // The first widget's table and the whole phone's, the fleet's and the servers' are open from the start.
      let open = index == 0 || ["device", "fleet", "server"].contains(subject)
      html += "<details\(open ? " open" : "")><summary>\(HTMLText.escape(subject))</summary>\n"
      html += "<div class=\"table-wrap\"><table><thead><tr><th>metric</th><th>mean</th><th>95% CI</th><th>unit</th>"
      html += "</tr></thead><tbody>\n"
      for row in table.rows where row[widget] == subject {
        // Hours of day read as clock times; an interval says how it was made when not plain t.
        let show = row[unit] == "hour of day" ? HTMLText.clock : HTMLText.figure
        var interval = row[low].isEmpty ? "–" : "[\(show(row[low])), \(show(row[high]))]"
        if let method, row[method] == MetricInterval.Method.logitT.rawValue {
          interval += " <span class=\"muted\" title=\"t interval of the logit: stays within the range\">logit</span>"
        }
        html += "<tr><td>\(HTMLText.escape(row[metric]))</td><td class=\"number\">\(show(row[mean]))</td>"
        html += "<td class=\"number\">\(interval)</td><td>\(HTMLText.escape(row[unit]))</td></tr>\n"
      }
      html += "</tbody></table></div></details>\n"
    }
    return html
  }

  static func sweep(_ charts: SweepCharts) throws(CSVTable.ReadError) -> String {
    let table = charts.table
    let point = try table.column("point")
    let metric = try table.column("metric")
    let widget = try table.column("widget")
    let mean = try table.column("mean")
    let low = try table.column("ci95_low")
    let high = try table.column("ci95_high")
    let unit = try table.column("unit")
    var columns: [(metric: String, widget: String, unit: String)] = []
    var cells: [String: [String: String]] = [:]
    var points: [(index: String, settings: [String])] = []
    let labelled = !charts.labels.isEmpty
    // The phone's cost first, then each widget's figures, then what one phone asks of the servers, then for
    // fleets what the servers must provision per second.
    let shown = SweepCharts.headlines + SweepCharts.serverMetrics.map(\.0)
    let perSecond = SweepCharts.capacityFigures.map(\.0)
    var rowsOf: [String: [[String]]] = [:]
    for row in table.rows {
      if !points.contains(where: { $0.index == row[point] }) {
        let label = labelled ? charts.labelColumn.map { [row[$0]] } ?? [] : []
        points.append((row[point], label + charts.keyColumns.map { row[$0] }))
      }
      let side = SweepCharts.capacitySides.contains { $0.0 == row[widget] }
      guard shown.contains(row[metric]) || (perSecond.contains(row[metric]) && side) else { continue }
      rowsOf["\(row[metric])\u{1F}\(row[widget])", default: []].append(row)
      let key = "\(row[metric])\u{1F}\(row[widget])"
      if !columns.contains(where: { $0.metric == row[metric] && $0.widget == row[widget] }) {
        columns.append((row[metric], row[widget], row[unit]))
      }
      let interval = row[low].isEmpty ? "" : " [\(HTMLText.figure(row[low])), \(HTMLText.figure(row[high]))]"
      cells[row[point], default: [:]][key] = HTMLText.figure(row[mean]) + interval
    }
    // Headers and figures on one line each; the table is as wide as they need and scrolls sideways in its
    // frame rather than cutting a column or squeezing figures onto several lines.
    var html = "<div class=\"table-wrap\"><table class=\"sweep-points\"><thead><tr><th>point</th>"
    if labelled { html += "<th>design</th>" }
    for key in charts.keys { html += "<th>\(HTMLText.escape(key))</th>" }
    for column in columns {
      html += "<th>\(HTMLText.escape(column.metric))<br><span class=\"muted\">\(HTMLText.escape(column.widget)), "
      // Only the interval the column has: none with one replication, the sample's own for its estimates.
      let drawn = charts.drawnIntervals(rowsOf["\(column.metric)\u{1F}\(column.widget)"] ?? [])
      let interval =
        drawn.drawn == 0
        ? "" : drawn.methods == [MetricInterval.Method.fleetSample.rawValue] ? " [sample's 95% interval]" : " [95% CI]"
      html += "\(HTMLText.escape(column.unit)), mean\(interval)</span></th>"
    }
    html += "</tr></thead><tbody>\n"
    for entry in points {
      html += "<tr><td class=\"number\">\(HTMLText.escape(entry.index))</td>"
      for setting in entry.settings { html += "<td>\(HTMLText.escape(setting))</td>" }
      for column in columns {
        html += "<td class=\"number\">\(cells[entry.index]?["\(column.metric)\u{1F}\(column.widget)"] ?? "–")</td>"
      }
      html += "</tr>\n"
    }
    return html + "</tbody></table></div>\n"
  }
}
