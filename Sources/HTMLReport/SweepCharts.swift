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
  /// The `point_label` column (sweeps written before labels have none).
  let labelColumn: Int?
  /// Each point's label, in point order, when the sweep names its points: the charts then put the designs
  /// side by side on a categorical axis in that order.
  let labels: [(point: String, label: String)]
  /// What the server chart multiplies a phone's requests by (`--users`, or the fleet's `represents`); nil
  /// without `--users` for one phone, or when points stand for different numbers of phones.
  let users: Double?

  /// The metrics charted, when present, in this order: first what the phone pays for the design (widgets,
  /// the app's own runs, push wake-ups, radio), then each widget's figures (its energy is its own alone).
  static let headlines = [
    "phone_mwh_per_day", "reloads_per_day", "staleness_mean", "staleness_p95", "budget_exhausted_day_share",
    "joules_per_day", "battery_percent_per_day",
  ]

  /// What one phone asks of the servers a day, kept apart by direction, and the name of each.
  static let serverMetrics = [
    ("requests_received_per_device_per_day", "requests received"), ("pushes_sent_per_device_per_day", "pushes sent"),
  ]

  /// Chart titles that say more than the metric's name.
  static func title(_ metric: String, _ subject: String) -> String {
    switch metric {
    case "phone_mwh_per_day": "What the phone pays a day (widgets, the app's own runs, push wake-ups, radio)"
    case "joules_per_day", "battery_percent_per_day": "\(metric) of \(subject) alone (a part of what the phone pays)"
    default: "\(metric) of \(subject)"
    }
  }

  init(directory: String, manifest: SweepManifest? = nil, users: Double? = nil) throws(CSVTable.ReadError) {
    table = try CSVTable(path: "\(directory)/sweep_summary.csv")
    let metric = try table.column("metric")
    let point = try table.column("point")
    let labelColumn = table.header.firstIndex(of: "point_label").flatMap { $0 < metric ? $0 : nil }
    self.labelColumn = labelColumn
    var labels: [(point: String, label: String)] = []
    if let labelColumn {
      for row in table.rows where !labels.contains(where: { $0.point == row[point] }) {
        labels.append((row[point], row[labelColumn]))
      }
    }
    self.labels = labels.contains { !$0.label.isEmpty } ? labels : []
    let represents = manifest?.represents ?? []
    // A fleet's phones when every point stands for the same number; one phone's axis would repeat the left.
    let fleet = represents.first.flatMap { first in represents.allSatisfy { $0 == first } && first > 1 ? first : nil }
    self.users = users ?? fleet
    let columns = Array(table.header[1..<metric])
    var keys: [String] = []
    var keyColumns: [Int] = []
    var baseUnitColumns: [String: (column: Int, unit: String)] = [:]
    for (offset, name) in columns.enumerated() where 1 + offset != labelColumn {
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
        let own = rows.filter { $0[widget] == subject }
        charts.append(
          labels.isEmpty ? try chart(metric: name, widget: subject, rows: own) : try designChart(name, subject, own))
      }
      if name == "phone_mwh_per_day", let server = try serverChart() { charts.append(server) }
    }
    return charts
  }

  /// A point's label and the mean, 95% CI and point number of `row`, as chart data; nil without a mean.
  func designValue(_ row: [String], _ extra: [(String, JSONValue)] = []) throws(CSVTable.ReadError) -> JSONValue? {
    let point = try table.column("point")
    guard let labelColumn, let mean = CSVTable.number(row[try table.column("mean")]) else { return nil }
    var members: [(String, JSONValue)] = [
      ("point", .integer(Int(row[point]) ?? 0)), ("design", .string(row[labelColumn])), ("mean", .number(mean)),
    ]
    if let low = CSVTable.number(row[try table.column("ci95_low")]),
      let high = CSVTable.number(row[try table.column("ci95_high")])
    {
      members += [("low", .number(low)), ("high", .number(high))]
    }
    return VegaLite.row(members + extra)
  }

  /// The designs on x in the order the sweep lists them (a categorical axis: nothing joins one to the next).
  var designAxis: JSONValue {
    VegaLite.field(
      "design", "nominal", title: "design (the sweep's points, in order)",
      extra: [
        ("sort", .array(labels.map { .string($0.label) })),
        ("axis", .object([("labelAngle", .integer(-30)), ("labelLimit", .integer(220))])),
      ])
  }

  /// One metric of one subject for a sweep whose points are named designs: each design's mean with its 95%
  /// CI, side by side in the listed order.
  func designChart(_ name: String, _ subject: String, _ rows: [[String]]) throws(CSVTable.ReadError) -> Chart {
    var values: [JSONValue] = []
    for row in rows { if let value = try designValue(row) { values.append(value) } }
    let intervals = values.filter { $0["low"] != nil }.count
    let unitText = rows.first?[try table.column("unit")] ?? ""
    let yTitle = "\(name) (\(unitText)), mean and 95% CI"
    let y = VegaLite.field("mean", "quantitative", title: yTitle, extra: [("scale", .object([("zero", .bool(true))]))])
    let spec = VegaLite.unit(
      values: values,
      layers: [
        VegaLite.layer(
          "interval", mark: VegaLite.mark("rule", [("strokeWidth", .integer(2))]),
          encoding: [
            ("x", designAxis), ("y", VegaLite.field("low", "quantitative", title: yTitle)),
            ("y2", .object([("field", .string("high"))])),
          ]),
        VegaLite.layer(
          "mean", mark: VegaLite.mark("point", [("filled", .bool(true)), ("size", .integer(80))]),
          encoding: [("x", designAxis), ("y", y)]),
      ])
    return Chart(
      id: "sweep-\(name)-\(HTMLText.slug(subject))", title: SweepCharts.title(name, subject),
      caption:
        "Each design's mean over replications with its 95% confidence interval, in the order the sweep lists them (common random numbers: every design saw the same user and the same data).",
      spec: spec, marks: [("mean", values.count), ("interval", intervals)])
  }

  /// What one phone asks of the servers a day by design, the requests they receive apart from the pushes
  /// they send, with a second axis for ``users`` phones; nil for a sweep without named points or without the
  /// metrics.
  func serverChart() throws(CSVTable.ReadError) -> Chart? {
    guard !labels.isEmpty else { return nil }
    let metric = try table.column("metric")
    let widget = try table.column("widget")
    var layers: [JSONValue] = []
    var marks: [(layer: String, count: Int)] = []
    var highest = 0.0
    var series: [(name: String, layer: String, values: [JSONValue])] = []
    for (offset, (name, direction)) in SweepCharts.serverMetrics.enumerated() {
      var values: [JSONValue] = []
      for row in table.rows where row[metric] == name && row[widget] == "server" {
        guard let value = try designValue(row, [("direction", .string(direction))]) else { continue }
        values.append(value)
        for field in ["mean", "high"] {
          if case .number(let number)? = value[field] { highest = max(highest, number) }
        }
      }
      if !values.isEmpty { series.append((direction, ["received", "sent"][offset], values)) }
    }
    guard !series.isEmpty else { return nil }
    // One domain for every layer (and the users' axis the same times users), so both axes read the same marks.
    let top = highest > 0 ? highest * 1.05 : 1
    let domain = JSONValue.object([("domain", .array([.number(0), .number(top)]))])
    let color = VegaLite.field(
      "direction", "nominal", title: "per phone and day",
      extra: [
        ("scale", .object([("domain", .array(SweepCharts.serverMetrics.map { .string($0.1) }))])),
        ("legend", .object([("orient", .string("bottom"))])),
      ])
    for (index, entry) in series.enumerated() {
      // The two directions side by side at each design, a few pixels apart.
      let shift: [(String, JSONValue)] = [("xOffset", .integer(entry.layer == "received" ? -7 : 7))]
      let axis: [(String, JSONValue)] =
        index == 0 ? [("scale", domain)] : [("scale", domain), ("axis", .null)]
      let yTitle = "requests per phone per day, mean and 95% CI"
      layers.append(
        VegaLite.layer(
          "\(entry.layer)_interval", mark: VegaLite.mark("rule", [("strokeWidth", .integer(2))] + shift),
          encoding: [
            ("x", designAxis),
            ("y", VegaLite.field("low", "quantitative", title: yTitle, extra: [("scale", domain), ("axis", .null)])),
            ("y2", .object([("field", .string("high"))])), ("color", color),
          ], values: entry.values))
      layers.append(
        VegaLite.layer(
          entry.layer, mark: VegaLite.mark("point", [("filled", .bool(true)), ("size", .integer(80))] + shift),
          encoding: [
            ("x", designAxis), ("y", VegaLite.field("mean", "quantitative", title: yTitle, extra: axis)),
            ("color", color),
          ],
          values: entry.values))
      marks.append((entry.layer, entry.values.count))
      marks.append(("\(entry.layer)_interval", entry.values.filter { $0["low"] != nil }.count))
    }
    var caption =
      "Requests the app's servers receive (widget and app fetches, token registrations) and pushes they send, per phone and day: each design's mean over replications with its 95% confidence interval."
    var title = "Server requests per phone a day"
    if let users {
      let scaled = HTMLText.figure(RunSummaryText.fixed(users, 0))
      title += " and for \(scaled) users"
      caption +=
        " The right axis reads the same marks for \(scaled) users (widgetsim report --users N; by default the fleet's represents)."
      // An invisible mark per design on a right-hand axis whose domain is the left one's times users.
      let fleet = series.flatMap { entry in
        entry.values.map { value -> JSONValue in
          guard case .object(let members) = value, case .number(let mean)? = value["mean"] else { return value }
          return .object(members + [("users_mean", .number(mean * users))])
        }
      }
      layers.append(
        VegaLite.layer(
          "users", mark: .object([("type", .string("point")), ("opacity", .integer(0))]),
          encoding: [
            ("x", designAxis),
            (
              "y",
              VegaLite.field(
                "users_mean", "quantitative", title: "requests a day for \(scaled) users",
                extra: [
                  ("scale", .object([("domain", .array([.number(0), .number(top * users)]))])),
                  ("axis", .object([("orient", .string("right")), ("format", .string("~s"))])),
                ])
            ),
          ], values: fleet))
    } else {
      caption += " Give --users N (widgetsim report, sweep --report) for a second axis with N users' requests."
    }
    guard case .object(var members) = VegaLite.unit(values: [], layers: layers) else { return nil }
    members.append(("resolve", .object([("scale", .object([("y", .string("independent"))]))])))
    return Chart(id: "sweep-server-requests", title: title, caption: caption, spec: .object(members), marks: marks)
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
      title: "\(SweepCharts.title(name, subject)) \(xAxis.count > 1 ? "by lockstep setting" : "against \(xKey)")",
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
