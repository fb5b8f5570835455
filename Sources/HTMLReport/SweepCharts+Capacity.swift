import Reports

/// What the servers must provision per second for each point of a sweep of fleets: the busiest second and
/// the p99 second, received and sent side by side, for the whole fleet the simulated phones stand for.
extension SweepCharts {
  /// The per-second figures charted: metric, chart id, title.
  static let capacityFigures = [
    ("peak_requests_per_second", "sweep-capacity-peak", "Busiest second of the servers, for the whole fleet"),
    ("p99_requests_per_second", "sweep-capacity-p99", "p99 second of the servers, for the whole fleet"),
  ]

  /// The servers' two sides, as the `widget` column names them, and what each is.
  static let capacitySides = [
    ("received", "received (fetches, token registrations)"), ("sent", "sent (pushes to APNs, broadcast requests)"),
  ]

  /// The busiest second and the p99 second by point; none for a sweep whose points are not fleets. Named
  /// designs get one chart per figure, received and sent side by side at each design; a grid of settings
  /// gets each side's figure against the first axis, as every headline metric.
  func capacityCharts() throws(CSVTable.ReadError) -> [Chart] {
    let metric = try table.column("metric")
    let widget = try table.column("widget")
    var charts: [Chart] = []
    for (name, id, title) in SweepCharts.capacityFigures {
      let rows = table.rows.filter { row in
        row[metric] == name && SweepCharts.capacitySides.contains { $0.0 == row[widget] }
      }
      guard !rows.isEmpty else { continue }
      if labels.isEmpty {
        for (side, _) in SweepCharts.capacitySides {
          let own = rows.filter { $0[widget] == side }
          if !own.isEmpty { charts.append(try chart(metric: name, widget: side, rows: own)) }
        }
      } else {
        charts.append(try capacityChart(rows, id: id, title: title))
      }
    }
    return charts
  }

  /// One per-second figure by design: each side's value as a dot, with a rule for its interval only where it
  /// has one, the two sides a few pixels apart at each design.
  func capacityChart(_ rows: [[String]], id: String, title: String) throws(CSVTable.ReadError) -> Chart {
    let widget = try table.column("widget")
    let drawn = drawnIntervals(rows)
    let yTitle = "requests/s, \(drawn.axis)"
    let color = VegaLite.field(
      "side", "nominal", title: "the servers",
      extra: [
        ("scale", .object([("domain", .array(SweepCharts.capacitySides.map { .string($0.1) }))])),
        ("legend", .object([("orient", .string("bottom")), ("labelLimit", .integer(300))])),
      ])
    var layers: [JSONValue] = []
    var marks: [(layer: String, count: Int)] = []
    for (offset, (side, legend)) in SweepCharts.capacitySides.enumerated() {
      var values: [JSONValue] = []
      for row in rows where row[widget] == side {
        if let value = try designValue(row, [("side", .string(legend))]) { values.append(value) }
      }
      guard !values.isEmpty else { continue }
      let shift: [(String, JSONValue)] = [("xOffset", .integer(offset == 0 ? -7 : 7))]
      let intervals = values.filter { $0["low"] != nil }
      if !intervals.isEmpty {
        layers.append(
          VegaLite.layer(
            "\(side)_interval", mark: VegaLite.mark("rule", [("strokeWidth", .integer(2))] + shift),
            encoding: [
              ("x", designAxis), ("y", VegaLite.field("low", "quantitative", title: yTitle)),
              ("y2", .object([("field", .string("high"))])), ("color", color),
            ], values: intervals))
        marks.append(("\(side)_interval", intervals.count))
      }
      layers.append(
        VegaLite.layer(
          side, mark: VegaLite.mark("point", [("filled", .bool(true)), ("size", .integer(80))] + shift),
          encoding: [
            ("x", designAxis),
            (
              "y",
              VegaLite.field(
                "mean", "quantitative", title: yTitle, extra: [("scale", .object([("zero", .bool(true))]))])
            ),
            ("color", color),
          ], values: values))
      marks.append((side, values.count))
    }
    return Chart(
      id: id, title: title,
      caption:
        "Requests per second the app's servers receive and those they send (different systems, never added), for the whole fleet the simulated phones stand for: each design's \(drawn.value) \(drawn.phrase), in the order the sweep lists them.",
      spec: VegaLite.unit(values: [], layers: layers), marks: marks)
  }
}
