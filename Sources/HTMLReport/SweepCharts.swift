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
    "mwh_per_day", "battery_percent_per_day",
  ]

  /// The per-part figures of what the phone pays (each in mWh/day, as the phone's cost): a design without
  /// the part pays nothing for it, and its chart shows that 0 rather than leaving the design out.
  static let partMetrics: Set<String> = ["mwh_per_day", "battery_percent_per_day"]

  /// What one phone asks of the servers a day, kept apart by direction, and the name of each.
  static let serverMetrics = [
    ("requests_received_per_device_per_day", "requests received"), ("pushes_sent_per_device_per_day", "pushes sent"),
  ]

  /// Chart titles in words, not metric names (which the y axis and sweep_summary.csv keep).
  static func title(_ metric: String, _ subject: String) -> String {
    let of = subjectName(subject)
    return switch metric {
    case "phone_mwh_per_day": "What the phone pays a day (widgets, the app's own runs, push wake-ups, radio)"
    case "mwh_per_day", "joules_per_day": "Energy a day of \(of) alone (a part of what the phone pays)"
    case "battery_percent_per_day": "Battery a day of \(of) alone (a part of what the phone pays)"
    case "reloads_per_day": "Reloads a day of \(of)"
    case "staleness_mean": "Mean staleness of \(of) at views"
    case "staleness_p95": "95th percentile of staleness of \(of) at views"
    case "budget_exhausted_day_share": "Share of days \(of) ran out of reload budget"
    default: "\(metric) of \(of)"
    }
  }

  /// A subject as a title names it: the energy subjects that are not widgets in words, widgets by their id.
  static func subjectName(_ subject: String) -> String {
    switch subject {
    case "widget_push": "WidgetKit push wake-ups"
    case "silent_push": "silent push wake-ups"
    case "app": "the app's own runs"
    case "device": "the phone"
    default: subject
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
        var own = rows.filter { $0[widget] == subject }
        let zeros = SweepCharts.partMetrics.contains(name) ? try absentPart(name, subject, rows: own) : []
        own += zeros
        var drawn =
          labels.isEmpty ? try chart(metric: name, widget: subject, rows: own) : try designChart(name, subject, own)
        if !zeros.isEmpty {
          drawn = Chart(
            id: drawn.id, title: drawn.title,
            caption: drawn.caption
              + " A design without \(subject) pays nothing for it: drawn at 0, without an interval.",
            spec: drawn.spec, marks: drawn.marks)
        }
        charts.append(drawn)
      }
      if name == "phone_mwh_per_day" {
        if let pareto = try paretoChart() { charts.append(pareto) }
        if let server = try serverChart() { charts.append(server) }
        charts += try capacityCharts()
      }
    }
    return charts
  }

  /// For a per-part figure, a row of 0 (no interval) for every point whose design lacks `subject` (a
  /// design without pushes pays nothing for them), in point order after `rows`.
  func absentPart(_ name: String, _ subject: String, rows: [[String]]) throws(CSVTable.ReadError) -> [[String]] {
    let point = try table.column("point")
    let columns = (
      metric: try table.column("metric"), widget: try table.column("widget"), mean: try table.column("mean"),
      low: try table.column("ci95_low"), high: try table.column("ci95_high")
    )
    let method = table.header.firstIndex(of: "ci_method")
    var present = Set(rows.map { $0[point] })
    var zeros: [[String]] = []
    for row in table.rows where present.insert(row[point]).inserted {
      var zero = row
      zero[columns.metric] = name
      zero[columns.widget] = subject
      zero[columns.mean] = "0"
      zero[columns.low] = ""
      zero[columns.high] = ""
      if let method { zero[method] = "none" }
      if let unit = table.header.firstIndex(of: "unit"), let first = rows.first { zero[unit] = first[unit] }
      zeros.append(zero)
    }
    return zeros
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
  /// CI where it has one, side by side in the listed order.
  func designChart(_ name: String, _ subject: String, _ rows: [[String]]) throws(CSVTable.ReadError) -> Chart {
    var values: [JSONValue] = []
    for row in rows { if let value = try designValue(row) { values.append(value) } }
    let intervals = values.filter { $0["low"] != nil }.count
    let unitText = rows.first?[try table.column("unit")] ?? ""
    let drawn = drawnIntervals(rows)
    let yTitle = "\(name) (\(unitText)), \(drawn.axis)"
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
        "Each design's \(drawn.value) \(drawn.phrase), in the order the sweep lists them (common random numbers: every design saw the same user and the same data).",
      spec: spec, marks: [("mean", values.count), ("interval", intervals)])
  }

  /// Points of one metric of one subject: x the first axis of the grid (a swept duration or size by its
  /// number in base units, lockstep keys by their joined settings), one series per setting of the others.
  func chart(metric name: String, widget subject: String, rows: [[String]]) throws(CSVTable.ReadError) -> Chart {
    let mean = try table.column("mean")
    let low = try table.column("ci95_low")
    let high = try table.column("ci95_high")
    let unit = try table.column("unit")
    let point = try table.column("point")
    let axis = pointAxis(rows)
    let (values, intervals, ticks) = points(rows, of: subject, on: axis, columns: (mean, low, high, point))
    let unitText = rows.first?[unit] ?? ""
    let drawn = drawnIntervals(rows)
    let layers = SweepCharts.pointLayers(
      x: xEncoding(axis, ticks: ticks), yTitle: "\(name) (\(unitText)), \(drawn.axis)", color: seriesColor())
    return Chart(
      id: "sweep-\(name)-\(HTMLText.slug(subject))",
      title:
        "\(SweepCharts.title(name, subject)) \(axis.keys.count > 1 ? "by lockstep setting" : "against \(axis.name)")",
      caption: drawn.drawn == 0
        ? "Each point's \(drawn.value) \(drawn.phrase)."
        : "Mean over replications at every point of the sweep, \(drawn.phrase) (Student t over replications; for a share, a percentage or an hour of day on the logit scale, so it stays within the range; none for maxima and minima).",
      spec: VegaLite.unit(values: values, layers: layers), marks: [("mean", values.count), ("interval", intervals)])
  }

  /// How a chart of points places them on x: by the grid's first axis, as numbers when it is one swept
  /// duration or size (in base units) or one key of plain numbers, else as categories.
  struct PointAxis {
    /// The first axis's keys (several for keys in lockstep).
    let keys: [String]
    /// The axis's name in titles.
    let name: String
    /// The key when the axis has one alone.
    let single: String?
    /// The column in base units of a single swept duration or size, and its unit.
    let base: (column: Int, unit: String)?
    /// The single key's column.
    let keyColumn: Int?
    /// Whether every row's setting of the single key is a plain number.
    let plainNumbers: Bool

    var numeric: Bool { base != nil || plainNumbers }
  }

  /// The x axis of a chart of `rows`.
  func pointAxis(_ rows: [[String]]) -> PointAxis {
    let xAxis = axes.first ?? []
    let single = xAxis.count == 1 ? xAxis[0] : nil
    let keyColumn = single.flatMap { keys.firstIndex(of: $0) }.map { keyColumns[$0] }
    return PointAxis(
      keys: xAxis, name: xAxis.count > 1 ? "lockstep setting (listed above)" : xAxis.first ?? "point",
      single: single, base: single.flatMap { baseUnitColumns[$0] }, keyColumn: keyColumn,
      plainNumbers: keyColumn.map { column in rows.allSatisfy { Double($0[column]) != nil } } ?? false)
  }

  /// The chart data of `rows` (those without a mean left out): each point's x, series (the other axes'
  /// settings, or the subject alone) and mean with its 95% CI when it has one; how many have an interval;
  /// and the swept values with their text in the sweep file, for the ticks of a duration or size axis.
  func points(
    _ rows: [[String]], of subject: String, on axis: PointAxis, columns: (mean: Int, low: Int, high: Int, point: Int)
  ) -> (values: [JSONValue], intervals: Int, ticks: [(value: Double, text: String)]) {
    var values: [JSONValue] = []
    var intervals = 0
    var ticks: [(value: Double, text: String)] = []
    for row in rows {
      guard let value = CSVTable.number(row[columns.mean]) else { continue }
      let setting = settings(row)
      let others = axes.dropFirst().map { entry($0, setting) }.joined(separator: "; ")
      var members: [(String, JSONValue)] = [
        ("point", .integer(Int(row[columns.point]) ?? 0)), ("x", xValue(row, setting, on: axis, ticks: &ticks)),
        ("series", .string(others.isEmpty ? subject : others)), ("mean", .number(value)),
      ]
      if let lower = CSVTable.number(row[columns.low]), let upper = CSVTable.number(row[columns.high]) {
        members += [("low", .number(lower)), ("high", .number(upper))]
        intervals += 1
      }
      values.append(VegaLite.row(members))
    }
    return (values, intervals, ticks)
  }

  /// A row's x: its duration or size in base units (its text in the sweep file noted in `ticks` for the
  /// axis), its plain number, or as a category its lockstep setting's number (`#0`) or its settings joined.
  func xValue(
    _ row: [String], _ setting: [String: String], on axis: PointAxis, ticks: inout [(value: Double, text: String)]
  ) -> JSONValue {
    if let base = axis.base, let number = Double(row[base.column]) {
      if let text = axis.single.flatMap({ setting[$0] }), !ticks.contains(where: { $0.value == number }) {
        ticks.append((number, text))
      }
      return .number(number)
    }
    if axis.plainNumbers, let keyColumn = axis.keyColumn { return .number(Double(row[keyColumn]) ?? 0) }
    let values = axis.keys.map { setting[$0] ?? "" }
    return .string(firstAxisSettings.firstIndex(of: values).map { "#\($0)" } ?? values.joined(separator: " / "))
  }

  /// The x encoding: numbers on a scale that need not start at 0, categories in the data's order; a duration
  /// or size has its ticks at the swept values, labelled as the sweep file writes them (5m, 1h).
  func xEncoding(_ axis: PointAxis, ticks: [(value: Double, text: String)]) -> JSONValue {
    var extra: [(String, JSONValue)] = axis.numeric ? [("scale", .object([("zero", .bool(false))]))] : [("sort", .null)]
    if axis.keys.count > 1 && !firstAxisSettings.isEmpty {
      extra.append(("axis", .object([("labelAngle", .integer(0))])))
    }
    if axis.base != nil {
      let ticks = ticks.sorted { $0.value < $1.value }
      let labelExpression = ticks.reversed().reduce("datum.label") { rest, tick in
        "datum.value == \(tick.value) ? '\(tick.text.filter { $0 != "'" && $0 != "\\" })' : \(rest)"
      }
      extra.append(
        (
          "axis",
          .object([("values", .array(ticks.map { .number($0.value) })), ("labelExpr", .string(labelExpression))])
        ))
    }
    return VegaLite.field(
      "x", axis.numeric ? "quantitative" : "ordinal", title: axis.base.map { "\(axis.name) (\($0.unit))" } ?? axis.name,
      extra: extra)
  }

  /// The series' colours, with a legend of what tells them apart.
  func seriesColor() -> JSONValue {
    VegaLite.field(
      "series", "nominal",
      // Each entry names its keys (`a = 5m, b = 10m` for keys in lockstep: one entry, not one per key).
      title: axes.count > 1 ? "other swept keys" : "widget",
      extra: [("legend", .object([("orient", .string("bottom")), ("labelLimit", .integer(300))]))])
  }

  /// Each point's 95% CI as a rule, its mean as a dot, and a faint line joining the means of a series.
  static func pointLayers(x: JSONValue, yTitle: String, color: JSONValue) -> [JSONValue] {
    [
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
    ]
  }
}

extension CSVTable {
  /// `table`'s header with only `rows`.
  static func subset(_ table: CSVTable, _ rows: [[String]]) -> CSVTable {
    CSVTable(path: table.path, header: table.header, rows: rows)
  }
}
