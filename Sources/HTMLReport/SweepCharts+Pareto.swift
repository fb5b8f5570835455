import Reports

/// The designs on cost against staleness: each point's phone cost (`phone_mwh_per_day` of `device`) on x and
/// the first widget's mean staleness on y, each with its 95% interval both ways, the Pareto front marked and
/// joined. A ranking by cost alone puts the stalest design first; the front is what a review chooses from.
extension SweepCharts {
  func paretoChart() throws(CSVTable.ReadError) -> Chart? {
    let (metric, widget, point) = (try table.column("metric"), try table.column("widget"), try table.column("point"))
    let staleRows = table.rows.filter { $0[metric] == "staleness_mean" }
    guard let subject = RunCharts.labels(CSVTable.subset(table, staleRows), column: widget).first else { return nil }
    var costs: [String: [String]] = [:]
    var stale: [String: [String]] = [:]
    var order: [String] = []
    for row in table.rows {
      if row[metric] == "phone_mwh_per_day" && row[widget] == "device" {
        costs[row[point]] = row
        if !order.contains(row[point]) { order.append(row[point]) }
      }
      if row[metric] == "staleness_mean" && row[widget] == subject { stale[row[point]] = row }
    }
    let (mean, low, high) = (try table.column("mean"), try table.column("ci95_low"), try table.column("ci95_high"))
    let pairs = order.compactMap { index -> (String, [String], [String], Double, Double)? in
      guard let c = costs[index], let s = stale[index], let x = CSVTable.number(c[mean]),
        let y = CSVTable.number(s[mean])
      else { return nil }
      return (index, c, s, x, y)
    }
    guard pairs.count > 1 else { return nil }
    let front = ParetoFront.members(pairs.map { ($0.3, $0.4) })
    var values: [JSONValue] = []
    for ((index, c, s, x, y), onFront) in zip(pairs, front) {
      let label = labels.first { $0.point == index }?.label ?? ""
      var members: [(String, JSONValue)] = [
        ("design", .string(label.isEmpty ? "point \(index)" : label)), ("cost", .number(x)), ("staleness", .number(y)),
        ("front", .string(onFront ? "on the Pareto front" : "another design is cheaper and fresher")),
      ]
      for (name, row) in [("cost", c), ("staleness", s)] {
        if let lo = CSVTable.number(row[low]), let hi = CSVTable.number(row[high]) {
          members += [("\(name)_low", .number(lo)), ("\(name)_high", .number(hi))]
        }
      }
      values.append(VegaLite.row(members))
    }
    // Joined cheapest first: along the front, the dearer the fresher.
    let frontValues = values.indices.filter { front[$0] }.sorted { pairs[$0].3 < pairs[$1].3 }.map { values[$0] }
    let withCost = values.filter { $0["cost_low"] != nil }
    let withStaleness = values.filter { $0["staleness_low"] != nil }
    let layers = SweepCharts.paretoLayers(
      subject: subject, withCost: withCost, withStaleness: withStaleness, front: frontValues)
    // An interval is claimed only where one is drawn: one replication per design has none.
    let intervals =
      withCost.isEmpty && withStaleness.isEmpty
      ? "no interval (one replication per design)" : "with their 95% confidence intervals over replications"
    return Chart(
      id: "sweep-pareto", title: "Cost against staleness: which designs are on the Pareto front",
      caption:
        "Each design's daily cost to the phone (x) and mean staleness of \(subject) at views (y), \(intervals). A "
        + "design is on the Pareto front (joined by the dashed line) when no other is as cheap and as fresh and "
        + "better on one: the designs worth choosing between, each trading freshness for battery. The console "
        + "prints the same as a table.",
      spec: VegaLite.unit(height: 320, values: values, layers: layers),
      marks: [("design", values.count), ("cost_interval", withCost.count), ("staleness_interval", withStaleness.count)])
  }

  /// The intervals both ways as rules, the front as a dashed line, each design as a point shaped by whether
  /// it is on the front.
  static func paretoLayers(
    subject: String, withCost: [JSONValue], withStaleness: [JSONValue], front frontValues: [JSONValue]
  ) -> [JSONValue] {
    // One title per axis: the interval's ends carry the same, so the layers' titles do not pile up.
    let ci = withCost.isEmpty && withStaleness.isEmpty ? "" : ", 95% CI"
    let (xTitle, yTitle) = ("what the phone pays a day (mWh)\(ci)", "mean staleness of \(subject) at views (s)\(ci)")
    let x = VegaLite.field("cost", "quantitative", title: xTitle)
    let y = VegaLite.field("staleness", "quantitative", title: yTitle)
    return [
      VegaLite.layer(
        "cost_interval", mark: VegaLite.mark("rule"),
        encoding: [
          ("x", VegaLite.field("cost_low", "quantitative", title: xTitle)),
          ("x2", .object([("field", .string("cost_high"))])), ("y", y),
        ],
        values: withCost),
      VegaLite.layer(
        "staleness_interval", mark: VegaLite.mark("rule"),
        encoding: [
          ("x", x), ("y", VegaLite.field("staleness_low", "quantitative", title: yTitle)),
          ("y2", .object([("field", .string("staleness_high"))])),
        ],
        values: withStaleness),
      VegaLite.layer(
        "front", mark: VegaLite.mark("line", [("strokeDash", .array([.integer(4), .integer(3)]))]),
        encoding: [("x", x), ("y", y), ("order", .object([("field", .string("cost"))]))], values: frontValues),
      VegaLite.layer(
        "design", mark: VegaLite.mark("point", [("filled", .bool(true)), ("size", .integer(90))]),
        encoding: [
          ("x", x), ("y", y), ("shape", VegaLite.field("front", "nominal", title: "")),
          ("color", VegaLite.field("design", "nominal", title: "design")),
        ]),
    ]
  }
}
