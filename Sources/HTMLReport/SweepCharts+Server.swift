import Reports

/// What one phone asks of the servers a day in a sweep of named designs: the requests they receive apart from
/// the pushes they send, and what ``SweepCharts/users`` phones ask.
extension SweepCharts {
  /// What one phone asks of the servers a day by design, the requests they receive apart from the pushes
  /// they send, with a second axis for ``users`` phones; nil for a sweep without named points or without the
  /// metrics.
  func serverChart() throws(CSVTable.ReadError) -> Chart? {
    guard !labels.isEmpty else { return nil }
    let (series, highest) = try serverSeries()
    guard !series.isEmpty else { return nil }
    // One domain for every layer (and the users' axis the same times users), so both axes read the same marks.
    let top = highest > 0 ? highest * 1.05 : 1
    let (metric, widget) = (try table.column("metric"), try table.column("widget"))
    let drawn = drawnIntervals(
      table.rows.filter { row in
        row[widget] == "server" && SweepCharts.serverMetrics.contains { $0.0 == row[metric] }
      })
    var layers: [JSONValue] = []
    var marks: [(layer: String, count: Int)] = []
    for (index, entry) in series.enumerated() {
      layers += directionLayers(entry, top: top, showsAxis: index == 0, axis: drawn.axis)
      marks.append((entry.layer, entry.values.count))
      marks.append(("\(entry.layer)_interval", entry.values.filter { $0["low"] != nil }.count))
    }
    var caption =
      "Requests the app's servers receive (widget and app fetches, token registrations) and pushes they send, per phone and day: each design's \(drawn.value) \(drawn.phrase)."
    var title = "Server requests per phone a day"
    if let users {
      let scaled = HTMLText.figure(RunSummaryText.fixed(users, 0))
      title += " and for \(scaled) users"
      caption +=
        " The right axis reads the same marks for \(scaled) users (widgetsim report --users N; by default the fleet's represents)."
      layers.append(usersLayer(series, top: top, users: users, scaled: scaled))
    } else {
      caption += " Give --users N (widgetsim report, sweep --report) for a second axis with N users' requests."
    }
    guard case .object(var members) = VegaLite.unit(values: [], layers: layers) else { return nil }
    members.append(("resolve", .object([("scale", .object([("y", .string("independent"))]))])))
    return Chart(id: "sweep-server-requests", title: title, caption: caption, spec: .object(members), marks: marks)
  }

  /// One direction of the server chart: its legend name, its layer's name and its points.
  typealias DirectionSeries = (name: String, layer: String, values: [JSONValue])

  /// Each direction's points by design (requests received, pushes sent), a direction without any left out,
  /// and the highest mean or interval top among them, which sets the axes' domain.
  func serverSeries() throws(CSVTable.ReadError) -> (series: [DirectionSeries], highest: Double) {
    let metric = try table.column("metric")
    let widget = try table.column("widget")
    var highest = 0.0
    var series: [DirectionSeries] = []
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
    return (series, highest)
  }

  /// One direction's 95% CIs as rules and means as dots, a few pixels beside the other direction's at each
  /// design, on the shared domain 0...`top`; only the first direction draws the left axis.
  func directionLayers(_ entry: DirectionSeries, top: Double, showsAxis: Bool, axis intervals: String) -> [JSONValue] {
    let domain = JSONValue.object([("domain", .array([.number(0), .number(top)]))])
    let color = VegaLite.field(
      "direction", "nominal", title: "per phone and day",
      extra: [
        ("scale", .object([("domain", .array(SweepCharts.serverMetrics.map { .string($0.1) }))])),
        ("legend", .object([("orient", .string("bottom"))])),
      ])
    // The two directions side by side at each design, a few pixels apart.
    let shift: [(String, JSONValue)] = [("xOffset", .integer(entry.layer == "received" ? -7 : 7))]
    let axis: [(String, JSONValue)] = showsAxis ? [("scale", domain)] : [("scale", domain), ("axis", .null)]
    let yTitle = "requests per phone per day, \(intervals)"
    return [
      VegaLite.layer(
        "\(entry.layer)_interval", mark: VegaLite.mark("rule", [("strokeWidth", .integer(2))] + shift),
        encoding: [
          ("x", designAxis),
          ("y", VegaLite.field("low", "quantitative", title: yTitle, extra: [("scale", domain), ("axis", .null)])),
          ("y2", .object([("field", .string("high"))])), ("color", color),
        ], values: entry.values),
      VegaLite.layer(
        entry.layer, mark: VegaLite.mark("point", [("filled", .bool(true)), ("size", .integer(80))] + shift),
        encoding: [
          ("x", designAxis), ("y", VegaLite.field("mean", "quantitative", title: yTitle, extra: axis)),
          ("color", color),
        ],
        values: entry.values),
    ]
  }

  /// An invisible mark per design on a right-hand axis whose domain is the left one's times `users`, so the
  /// same marks read as the requests of `scaled` users.
  func usersLayer(_ series: [DirectionSeries], top: Double, users: Double, scaled: String) -> JSONValue {
    let fleet = series.flatMap { entry in
      entry.values.map { value -> JSONValue in
        guard case .object(let members) = value, case .number(let mean)? = value["mean"] else { return value }
        return .object(members + [("users_mean", .number(mean * users))])
      }
    }
    return VegaLite.layer(
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
      ], values: fleet)
  }
}
