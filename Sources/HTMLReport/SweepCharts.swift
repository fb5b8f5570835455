import Reports

/// The charts of a sweep folder (also one merged from shards), from sweep_summary.csv: each headline metric
/// against the swept parameter, with 95% confidence intervals as error bars.
struct SweepCharts {
  let table: CSVTable
  /// The swept keys as written: the columns between `point` and `metric`, less those in base units.
  let keys: [String]
  /// Each key's column, and its column in base units (`<key>_s`, `<key>_bytes`) when it has one.
  let keyColumns: [Int]
  let baseUnitColumns: [String: (column: Int, unit: String)]
  /// The grid's axes (lockstep keys together) from manifest.json; each key alone without one.
  let axes: [[String]]
  /// The first axis's settings from manifest.json: a lockstep axis is charted by their numbers (`#0`, `#1`),
  /// which the page's header lists.
  let firstAxisSettings: [[String]]

  /// The metrics charted, when present, in this order.
  static let headlines = [
    "reloads_per_day", "staleness_mean", "staleness_p95", "budget_exhausted_day_share", "joules_per_day",
    "battery_percent_per_day",
  ]

  init(directory: String, manifest: SweepManifest? = nil) throws(CSVTable.ReadError) {
    table = try CSVTable(path: "\(directory)/sweep_summary.csv")
    let metric = try table.column("metric")
    let columns = Array(table.header[1..<metric])
    var keys: [String] = []
    var keyColumns: [Int] = []
    var baseUnitColumns: [String: (column: Int, unit: String)] = [:]
    for (offset, name) in columns.enumerated() {
      let base = [("_s", "s"), ("_bytes", "bytes")].first { suffix, _ in
        name.hasSuffix(suffix) && columns.contains(String(name.dropLast(suffix.count)))
      }
      if let (suffix, unit) = base {
        baseUnitColumns[String(name.dropLast(suffix.count))] = (1 + offset, unit)
      } else {
        keys.append(name)
        keyColumns.append(1 + offset)
      }
    }
    self.keys = keys
    self.keyColumns = keyColumns
    self.baseUnitColumns = baseUnitColumns
    let grid = manifest?.grid.map(\.keys) ?? []
    axes = grid.flatMap { $0 }.sorted() == keys.sorted() ? grid : keys.map { [$0] }
    firstAxisSettings = axes == grid ? manifest?.grid.first?.values ?? [] : []
  }

  /// The settings of a point's row, per key.
  func settings(_ row: [String]) -> [String: String] {
    Dictionary(zip(keys, keyColumns.map { row[$0] }), uniquingKeysWith: { first, _ in first })
  }

  /// An axis's setting as a legend entry: `key = value`, lockstep keys joined in one.
  func entry(_ axis: [String], _ settings: [String: String]) -> String {
    axis.map { "\($0) = \(settings[$0] ?? "")" }.joined(separator: ", ")
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

  /// Points of one metric of one subject: x the first axis of the grid (a swept duration or size by its
  /// number in base units, lockstep keys by their joined settings), one series per setting of the others.
  func chart(metric name: String, widget subject: String, rows: [[String]]) throws(CSVTable.ReadError) -> Chart {
    let mean = try table.column("mean")
    let low = try table.column("ci95_low")
    let high = try table.column("ci95_high")
    let unit = try table.column("unit")
    let point = try table.column("point")
    let xAxis = axes.first ?? []
    let xKey = xAxis.count > 1 ? "lockstep setting (listed above)" : xAxis.first ?? "point"
    let single = xAxis.count == 1 ? xAxis[0] : nil
    let base = single.flatMap { baseUnitColumns[$0] }
    let keyColumn = single.flatMap { keys.firstIndex(of: $0) }.map { keyColumns[$0] }
    let plainNumbers = keyColumn.map { column in rows.allSatisfy { Double($0[column]) != nil } } ?? false
    let numeric = base != nil || plainNumbers
    var values: [JSONValue] = []
    var intervals = 0
    var tickLabels: [(value: Double, text: String)] = []
    for row in rows {
      guard let value = CSVTable.number(row[mean]) else { continue }
      let setting = settings(row)
      let others = axes.dropFirst().map { entry($0, setting) }.joined(separator: "; ")
      let x: JSONValue
      if let base, let number = Double(row[base.column]) {
        x = .number(number)
        if let text = single.flatMap({ setting[$0] }), !tickLabels.contains(where: { $0.value == number }) {
          tickLabels.append((number, text))
        }
      } else if plainNumbers, let keyColumn {
        x = .number(Double(row[keyColumn]) ?? 0)
      } else {
        let values = xAxis.map { setting[$0] ?? "" }
        x = .string(firstAxisSettings.firstIndex(of: values).map { "#\($0)" } ?? values.joined(separator: " / "))
      }
      var members: [(String, JSONValue)] = [
        ("point", .integer(Int(row[point]) ?? 0)), ("x", x),
        ("series", .string(others.isEmpty ? subject : others)), ("mean", .number(value)),
      ]
      if let lower = CSVTable.number(row[low]), let upper = CSVTable.number(row[high]) {
        members += [("low", .number(lower)), ("high", .number(upper))]
        intervals += 1
      }
      values.append(VegaLite.row(members))
    }
    let unitText = rows.first?[unit] ?? ""
    var xExtra: [(String, JSONValue)] = numeric ? [("scale", .object([("zero", .bool(false))]))] : [("sort", .null)]
    if xAxis.count > 1 && !firstAxisSettings.isEmpty { xExtra.append(("axis", .object([("labelAngle", .integer(0))]))) }
    if base != nil {
      // Ticks at the swept values, labelled as the sweep file writes them (5m, 1h), placed by their number.
      tickLabels.sort { $0.value < $1.value }
      let labelExpression = tickLabels.reversed().reduce("datum.label") { rest, tick in
        "datum.value == \(tick.value) ? '\(tick.text.filter { $0 != "'" && $0 != "\\" })' : \(rest)"
      }
      xExtra.append(
        (
          "axis",
          .object([("values", .array(tickLabels.map { .number($0.value) })), ("labelExpr", .string(labelExpression))])
        ))
    }
    let x = VegaLite.field(
      "x", numeric ? "quantitative" : "ordinal", title: base.map { "\(xKey) (\($0.unit))" } ?? xKey, extra: xExtra)
    let yTitle = "\(name) (\(unitText)), mean and 95% CI"
    let color = VegaLite.field(
      "series", "nominal",
      // Each entry names its keys (`a = 5m, b = 10m` for keys in lockstep: one entry, not one per key).
      title: axes.count > 1 ? "other swept keys" : "widget",
      extra: [("legend", .object([("orient", .string("bottom")), ("labelLimit", .integer(300))]))])
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
      id: "sweep-\(name)-\(HTMLText.slug(subject))",
      title: "\(name) of \(subject) \(xAxis.count > 1 ? "by lockstep setting" : "against \(xKey)")",
      caption:
        "Mean over replications at every point of the sweep, with its 95% confidence interval (Student t; for a share, a percentage or an hour of day on the logit scale, so it stays within the range; none for maxima and peaks).",
      spec: spec, marks: [("mean", values.count), ("interval", intervals)])
  }
}

extension CSVTable {
  /// `table`'s header with only `rows`.
  static func subset(_ table: CSVTable, _ rows: [[String]]) -> CSVTable {
    CSVTable(path: table.path, header: table.header, rows: rows)
  }
}
