import Reports

/// The charts of a sweep's selection, from selection.csv: the designs on the objective against the first
/// constraint's metric (95% intervals, the feasible region shaded, the chosen design marked), and how
/// many replications each design took before it left or was chosen.
struct SelectionCharts {
  let table: CSVTable

  /// The charts, none when the folder has no selection.csv.
  static func charts(directory: String) throws(CSVTable.ReadError) -> [Chart] {
    let path = "\(directory)/selection.csv"
    guard TextFile.isReadable(path) else { return [] }
    let charts = SelectionCharts(table: try CSVTable(path: path))
    return [try charts.designMap(), try charts.elimination()].compactMap { $0 }
  }

  func cell(_ row: [String], _ name: String) throws(CSVTable.ReadError) -> String { row[try table.column(name)] }

  func number(_ row: [String], _ name: String) throws(CSVTable.ReadError) -> Double? {
    CSVTable.number(try cell(row, name))
  }

  /// The design's status as the legend says it.
  func status(_ row: [String]) throws(CSVTable.ReadError) -> String {
    let status = try cell(row, "status")
    let on = try cell(row, "infeasible_on")
    return status == "infeasible" && !on.isEmpty ? "infeasible (\(on))" : status
  }

  var statusColor: JSONValue {
    VegaLite.field(
      "status", "nominal", title: "status",
      extra: [("legend", .object([("orient", .string("bottom")), ("labelLimit", .integer(300))]))])
  }

  /// The objective (y) against the first constraint's metric (x), each with its 95% interval.
  func designMap() throws(CSVTable.ReadError) -> Chart? {
    guard table.header.contains("constraint1_mean"), let first = table.rows.first else { return nil }
    let (values, largest) = try designValues()
    guard !values.isEmpty else { return nil }
    let region = try feasibleRegion(first, largest: largest)
    let (xTitle, yTitle) = try titles(first)
    let scale: JSONValue = .object([("type", .string("symlog"))])
    let x = VegaLite.field("x", "quantitative", title: xTitle, extra: [("scale", scale)])
    let y = VegaLite.field("y", "quantitative", title: yTitle, extra: [("scale", .object([("zero", .bool(false))]))])
    let withX = values.filter { $0["xLow"] != nil }
    let withY = values.filter { $0["yLow"] != nil }
    let chosen = values.filter { $0["status"] == .string("chosen") }
    let spec = VegaLite.unit(
      height: 320, values: values,
      layers: [
        VegaLite.layer(
          "feasible",
          mark: .object([("type", .string("rect")), ("opacity", .number(0.12)), ("color", .string("green"))]),
          encoding: [
            ("x", VegaLite.field("from", "quantitative", title: xTitle, extra: [("scale", scale)])),
            ("x2", .object([("field", .string("to"))])),
          ], values: [region]),
        VegaLite.layer(
          "xInterval", mark: VegaLite.mark("rule"),
          encoding: [
            ("x", VegaLite.field("xLow", "quantitative", title: xTitle, extra: [("scale", scale)])),
            ("x2", .object([("field", .string("xHigh"))])), ("y", y), ("color", statusColor),
          ], values: withX),
        VegaLite.layer(
          "yInterval", mark: VegaLite.mark("rule"),
          encoding: [
            ("x", x), ("y", VegaLite.field("yLow", "quantitative", title: yTitle)),
            ("y2", .object([("field", .string("yHigh"))])), ("color", statusColor),
          ], values: withY),
        VegaLite.layer(
          "design", mark: VegaLite.mark("point", [("filled", .bool(true)), ("size", .integer(70))]),
          encoding: [
            ("x", x), ("y", y), ("color", statusColor), ("tooltip", .array(tooltip)),
          ]),
        VegaLite.layer(
          "chosen", mark: VegaLite.mark("point", [("size", .integer(400)), ("strokeWidth", .integer(3))]),
          encoding: [("x", x), ("y", y), ("color", .object([("value", .string("black"))]))], values: chosen),
      ].filter { layer in
        // A layer without data would warn of an empty extent: none is chosen, or no design has an interval.
        !["chosen": chosen, "xInterval": withX, "yInterval": withY][layer["name"]?.scalarText ?? "", default: values]
          .isEmpty
      })
    return Chart(
      id: "selection-map", title: "The designs: what the selection minimizes or maximizes against its first constraint",
      caption:
        "Each design's mean with its 95% interval on both axes, over the replications the selection gave it; the "
        + "shaded band is where the first constraint is met, the ringed design is the one chosen (selection.csv).",
      spec: spec,
      marks: [
        ("feasible", 1), ("xInterval", withX.count), ("yInterval", withY.count), ("design", values.count),
        ("chosen", chosen.count),
      ].filter { $0.1 > 0 || $0.0 == "design" })
  }

  /// Where the first constraint is met, from 0 (at most) or to past the largest x (at least).
  func feasibleRegion(_ first: [String], largest: Double) throws(CSVTable.ReadError) -> JSONValue {
    let bound = try number(first, "constraint1_bound") ?? 0
    let atMost = try cell(first, "constraint1_at_most") == "true"
    return .object([
      ("from", .number(atMost ? 0 : bound)), ("to", .number(atMost ? bound : max(bound, largest) * 1.1)),
    ])
  }

  /// The axes' titles: the first constraint's metric (x) and the objective (y), with their units.
  func titles(_ first: [String]) throws(CSVTable.ReadError) -> (x: String, y: String) {
    let xTitle =
      "\(try cell(first, "constraint1_metric")) of \(try cell(first, "constraint1_widget")) "
      + "(\(try cell(first, "constraint1_unit")), symlog scale)"
    let yTitle = "\(try cell(first, "metric")) of \(try cell(first, "widget")) (\(try cell(first, "unit")))"
    return (xTitle, yTitle)
  }

  /// Each design as chart data (its means and intervals on both axes), and the largest x drawn.
  func designValues() throws(CSVTable.ReadError) -> (values: [JSONValue], largest: Double) {
    var values: [JSONValue] = []
    var largest = 0.0
    for row in table.rows {
      guard let x = try number(row, "constraint1_mean"), let y = try number(row, "mean") else { continue }
      largest = max(largest, try number(row, "constraint1_ci_high") ?? x)
      var members: [(String, JSONValue)] = [
        ("design", .string(try cell(row, "point_label"))), ("status", .string(try status(row))),
        ("x", .number(x)), ("y", .number(y)), ("replications", .string(try cell(row, "replications"))),
      ]
      for (name, column) in [
        ("xLow", "constraint1_ci_low"), ("xHigh", "constraint1_ci_high"), ("yLow", "ci_low"), ("yHigh", "ci_high"),
      ] {
        if let value = try number(row, column) { members.append((name, .number(value))) }
      }
      values.append(.object(members))
    }
    return (values, largest)
  }

  var tooltip: [JSONValue] {
    ["design", "status", "x", "y", "replications"].map { .object([("field", .string($0))]) }
  }

  /// Each design's replications as a bar: where it left (dropped, infeasible, tied) or was chosen.
  func elimination() throws(CSVTable.ReadError) -> Chart? {
    var values: [JSONValue] = []
    for row in table.rows {
      guard let replications = try number(row, "replications") else { continue }
      values.append(
        .object([
          ("design", .string("\(try cell(row, "point")) \(try cell(row, "point_label"))")),
          ("status", .string(try status(row))), ("replications", .number(replications)),
          ("twoStage", .string(try cell(row, "two_stage_replications"))),
        ]))
    }
    guard !values.isEmpty else { return nil }
    let design = VegaLite.field("design", "nominal", title: "design", extra: [("sort", .null)])
    let spec = VegaLite.unit(
      values: values,
      layers: [
        VegaLite.layer(
          "replications", mark: VegaLite.mark("bar"),
          encoding: [
            ("y", design),
            ("x", VegaLite.field("replications", "quantitative", title: "replications taken before leaving or chosen")),
            ("color", statusColor),
          ])
      ])
    return Chart(
      id: "selection-elimination", title: "Elimination over replications",
      caption:
        "Every design takes the first stage; then each round adds replications only to the designs still in "
        + "contention, and a design leaves at the replication its bar ends (selection.csv: by which design, on "
        + "which constraint). The chosen design's bar is where the procedure stopped.",
      spec: spec, marks: [("replications", values.count)])
  }
}
