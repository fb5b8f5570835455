import Reports

/// The charts of a sweep folder (also one merged from shards), from sweep_summary.csv: each headline metric
/// against the swept parameter, with 95% confidence intervals as error bars.
struct SweepCharts {
  let table: CSVTable
  /// The swept keys: the columns between `point` and `metric`.
  let keys: [String]

  /// The metrics charted, when present, in this order.
  static let headlines = [
    "reloads_per_day", "staleness_mean", "staleness_p95", "budget_exhausted_day_share", "joules_per_day",
    "battery_percent_per_day",
  ]

  init(directory: String) throws(CSVTable.ReadError) {
    table = try CSVTable(path: "\(directory)/sweep_summary.csv")
    let metric = try table.column("metric")
    keys = Array(table.header[1..<metric])
  }

  func charts() throws(CSVTable.ReadError) -> [Chart] {
    let metric = try table.column("metric")
    let widget = try table.column("widget")
    var charts: [Chart] = []
    for name in SweepCharts.headlines {
      let rows = table.rows.filter { $0[metric] == name }
      let subjects = RunCharts.labels(CSVTable.subset(table, rows), column: widget)
      for subject in subjects.prefix(4) {
        charts.append(try chart(metric: name, widget: subject, rows: rows.filter { $0[widget] == subject }))
      }
    }
    return charts
  }

  /// Points of one metric of one subject: x the first swept key, one series per setting of the others.
  func chart(metric name: String, widget subject: String, rows: [[String]]) throws(CSVTable.ReadError) -> Chart {
    let mean = try table.column("mean")
    let low = try table.column("ci95_low")
    let high = try table.column("ci95_high")
    let unit = try table.column("unit")
    let point = try table.column("point")
    let xKey = keys.first ?? "point"
    let numeric = rows.allSatisfy { Double($0[1]) != nil }
    var values: [JSONValue] = []
    var intervals = 0
    for row in rows {
      guard let value = CSVTable.number(row[mean]) else { continue }
      let others = keys.indices.dropFirst().map { "\(keys[$0])=\(row[1 + $0])" }.joined(separator: ", ")
      var members: [(String, JSONValue)] = [
        ("point", .integer(Int(row[point]) ?? 0)), ("x", numeric ? .number(Double(row[1]) ?? 0) : .string(row[1])),
        ("series", .string(others.isEmpty ? subject : others)), ("mean", .number(value)),
      ]
      if let lower = CSVTable.number(row[low]), let upper = CSVTable.number(row[high]) {
        members += [("low", .number(lower)), ("high", .number(upper))]
        intervals += 1
      }
      values.append(VegaLite.row(members))
    }
    let unitText = rows.first?[unit] ?? ""
    let x = VegaLite.field(
      "x", numeric ? "quantitative" : "ordinal", title: xKey,
      extra: numeric ? [("scale", .object([("zero", .bool(false))]))] : [("sort", .null)])
    let yTitle = "\(name) (\(unitText)), mean and 95% CI"
    let color = VegaLite.field(
      "series", "nominal", title: keys.count > 1 ? keys.dropFirst().joined(separator: ", ") : "widget")
    let spec = VegaLite.unit(
      values: values,
      layers: [
        VegaLite.layer(
          "interval", mark: VegaLite.mark("rule"),
          encoding: [
            ("x", x),
            (
              "y",
              VegaLite.field(
                "low", "quantitative", title: yTitle, extra: [("scale", .object([("zero", .bool(false))]))])
            ),
            ("y2", .object([("field", .string("high"))])), ("color", color),
          ]),
        VegaLite.layer(
          "line", mark: VegaLite.mark("line", [("opacity", .number(0.5))]),
          encoding: [("x", x), ("y", VegaLite.field("mean", "quantitative", title: yTitle)), ("color", color)]),
        VegaLite.layer(
          "mean", mark: VegaLite.mark("point", [("filled", .bool(true)), ("size", .integer(50))]),
          encoding: [("x", x), ("y", VegaLite.field("mean", "quantitative", title: yTitle)), ("color", color)]),
      ])
    return Chart(
      id: "sweep-\(name)-\(HTMLText.slug(subject))", title: "\(name) of \(subject) against \(xKey)",
      caption: "Mean over replications at every point of the sweep, with its 95% confidence interval (Student t).",
      spec: spec, marks: [("mean", values.count), ("interval", intervals)])
  }
}

extension CSVTable {
  /// `table`'s header with only `rows`.
  static func subset(_ table: CSVTable, _ rows: [[String]]) -> CSVTable {
    CSVTable(path: table.path, header: table.header, rows: rows)
  }
}
