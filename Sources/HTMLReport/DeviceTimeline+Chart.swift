import Reports

/// The timeline as a Vega-Lite chart: the rows share a band scale on y, the battery its own scale in a strip
/// beneath them; spans are rectangles, instants ticks; each kind of mark has its own colour legend.
extension DeviceTimeline {
  static let laneHeight = 22
  static let batteryHeight = 90
  static let gap = 16

  /// Span colours, readable on the light and the dark page (Low Power Mode and charging as the battery chart).
  static let spanColors: [(String, String)] = [
    ("app in foreground", "#4e79a7"), ("radio promotion", "#e15759"), ("radio active", "#76b7b2"),
    ("radio tail", "#ff9da7"), ("Low Power Mode", "#e8a33d"), ("charging", "#4caf50"),
    ("switched off", "#7f7f7f"),
  ]
  static let viewColors: [(String, String)] = [("fresh", "#59a14f"), ("stale", "#f28e2b"), ("placeholder", "#e15759")]

  var chart: Chart {
    let lanesHeight = lanes.count * DeviceTimeline.laneHeight
    let height = lanesHeight + DeviceTimeline.gap + DeviceTimeline.batteryHeight
    let x = VegaLite.field(
      "start", "quantitative", title: "time of day (local time), day \(day)",
      extra: [
        ("scale", .object([("domain", .array([.integer(0), .integer(24)])), ("nice", .bool(false))])),
        ("axis", .object([("values", .array(stride(from: 0, through: 24, by: 2).map { .integer($0) }))])),
      ])
    // Every layer of rows has the same scale; only the first draws the axis (the battery's is independent).
    let rows = { (axis: JSONValue) in
      VegaLite.field(
        "lane", "nominal", title: "",
        extra: [
          ("sort", .array(self.lanes.map { .string($0) })),
          (
            "scale",
            .object([
              ("domain", .array(self.lanes.map { .string($0) })),
              ("range", .array([.integer(0), .integer(lanesHeight)])), ("paddingInner", .number(0.15)),
            ])
          ),
          ("axis", axis),
        ])
    }
    let y = rows(.object([("labelLimit", .integer(220)), ("title", .null)]))
    let yWithoutAxis = rows(.null)
    let tooltip: JSONValue = .array([
      .object([("field", .string("clock")), ("title", .string("time"))]),
      .object([("field", .string("lane")), ("title", .string("row"))]),
      .object([("field", .string("what")), ("title", .string("what"))]),
      .object([("field", .string("detail")), ("title", .string("detail"))]),
    ])
    let color = { (title: String, palette: [(String, String)]?) -> JSONValue in
      var extra: [(String, JSONValue)] = [("legend", .object([("orient", .string("right"))]))]
      if let palette {
        extra.append(
          (
            "scale",
            .object([
              ("domain", .array(palette.map { .string($0.0) })), ("range", .array(palette.map { .string($0.1) })),
            ])
          ))
      }
      return VegaLite.field("what", "nominal", title: title, extra: extra)
    }
    let tick = VegaLite.mark("tick", [("thickness", .integer(2))])
    var layers: [JSONValue] = [
      // Stroked as well as filled: a radio tail of seconds is narrower than a pixel at a day's scale.
      VegaLite.layer(
        "timeline_spans", mark: VegaLite.mark("rect", [("opacity", .number(0.85)), ("strokeWidth", .number(1))]),
        encoding: [
          ("x", x), ("x2", .object([("field", .string("end"))])), ("y", y),
          ("color", color("states", DeviceTimeline.spanColors)),
          (
            "stroke",
            VegaLite.field(
              "what", "nominal", title: "states",
              extra: [
                ("legend", .null),
                (
                  "scale",
                  .object([
                    ("domain", .array(DeviceTimeline.spanColors.map { .string($0.0) })),
                    ("range", .array(DeviceTimeline.spanColors.map { .string($0.1) })),
                  ])
                ),
              ])
          ),
          ("tooltip", tooltip),
        ], values: spans.map(DeviceTimeline.row)),
      VegaLite.layer(
        "timeline_views", mark: tick,
        encoding: [
          ("x", x), ("y", yWithoutAxis), ("color", color("views", DeviceTimeline.viewColors)), ("tooltip", tooltip),
        ],
        values: views.map(DeviceTimeline.row)),
      VegaLite.layer(
        "timeline_requests", mark: tick,
        encoding: [("x", x), ("y", yWithoutAxis), ("color", color("request cause", nil)), ("tooltip", tooltip)],
        values: requests.map(DeviceTimeline.row)),
      VegaLite.layer(
        "timeline_events", mark: tick,
        encoding: [
          ("x", x), ("y", yWithoutAxis), ("color", color("reload outcome, event", nil)), ("tooltip", tooltip),
        ],
        values: events.map(DeviceTimeline.row)),
    ]
    let soc = VegaLite.field(
      "soc", "quantitative", title: "battery (%)",
      extra: [
        (
          "scale",
          .object([
            ("domain", .array([.integer(0), .integer(100)])),
            ("range", .array([.integer(height), .integer(lanesHeight + DeviceTimeline.gap)])),
          ])
        ),
        ("axis", .object([("orient", .string("right")), ("values", .array([0, 50, 100].map { .integer($0) }))])),
      ])
    layers.append(
      VegaLite.layer(
        "timeline_battery", mark: VegaLite.mark("line", [("color", .string("#2ca02c")), ("strokeWidth", .integer(2))]),
        encoding: [("x", x), ("y", soc)],
        values: battery.map { VegaLite.row([("start", .number($0.hour)), ("soc", .number($0.percent))]) }))
    let spec = JSONValue.object([
      ("$schema", .string(VegaLite.schema)),
      ("width", .string("container")),
      ("height", .integer(height)),
      ("autosize", .object([("type", .string("fit-x")), ("contains", .string("padding"))])),
      ("layer", .array(layers)),
      (
        "resolve",
        .object([
          ("scale", .object([("color", .string("independent")), ("y", .string("independent"))])),
          ("axis", .object([("y", .string("independent"))])),
        ])
      ),
    ])
    return Chart(
      id: "timeline", title: "Device \(device), day \(day): timeline",
      caption: "What device \(device) did on day \(day) of the run's first replication (from trace.csv, local "
        + "time): each widget's views (fresh, stale or the placeholder), reload requests by cause and the reloads "
        + "that ran by outcome; data changes on the server; the app's opens and time in the foreground, its "
        + "background wakes, pushes sent and delivered; the radio's promotion, transfer and tail; Low Power Mode, "
        + "charging, and the battery's charge beneath. widgetsim report DIR --day D draws another of the "
        + "\(days) days.",
      spec: spec,
      marks: [
        ("timeline_battery", battery.isEmpty ? 0 : 1), ("timeline_spans", spans.count),
        ("timeline_views", views.count), ("timeline_requests", requests.count), ("timeline_events", events.count),
      ], wide: true)
  }

  static func row(_ mark: Mark) -> JSONValue {
    var members: [(String, JSONValue)] = [("lane", .string(mark.lane)), ("start", .number(mark.start))]
    if let end = mark.end { members.append(("end", .number(end))) }
    members += [("what", .string(mark.what)), ("clock", .string(mark.clock)), ("detail", .string(mark.detail))]
    return VegaLite.row(members)
  }
}
