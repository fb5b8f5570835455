import Reports

/// The timeline as a Vega-Lite chart: the rows share a band scale on y; beneath them, each widget's content
/// age and the battery in strips with scales of their own. Spans are rectangles, instants ticks; every layer
/// shares one colour scale (``DeviceTimeline/palette``), so one legend lists each meaning once.
extension DeviceTimeline {
  static let laneHeight = 22
  static let contentAgeHeight = 110
  static let batteryHeight = 70
  static let gap = 16

  var chart: Chart {
    let lanesHeight = lanes.count * DeviceTimeline.laneHeight
    let ageTop = lanesHeight + DeviceTimeline.gap
    let batteryTop = ageTop + DeviceTimeline.contentAgeHeight + DeviceTimeline.gap
    let height = batteryTop + DeviceTimeline.batteryHeight
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
    let colors = colorScale()
    let scale = JSONValue.object([
      ("domain", .array(colors.domain.map { .string($0) })), ("range", .array(colors.range.map { .string($0) })),
    ])
    let legend = JSONValue.object([
      ("orient", .string("right")), ("labelLimit", .integer(150)), ("symbolSize", .integer(60)),
      ("rowPadding", .integer(2)), ("title", .null),
    ])
    let color = VegaLite.field("what", "nominal", title: "", extra: [("scale", scale), ("legend", legend)])
    let tick = VegaLite.mark("tick", [("thickness", .integer(2))])
    var layers: [JSONValue] = [
      // Stroked as well as filled: a radio tail of seconds is narrower than a pixel at a day's scale.
      VegaLite.layer(
        "timeline_spans", mark: VegaLite.mark("rect", [("opacity", .number(0.85)), ("strokeWidth", .number(1))]),
        encoding: [
          ("x", x), ("x2", .object([("field", .string("end"))])), ("y", y),
          ("color", color),
          ("stroke", VegaLite.field("what", "nominal", title: "", extra: [("scale", scale), ("legend", legend)])),
          ("tooltip", tooltip),
        ], values: spans.map(DeviceTimeline.row)),
      VegaLite.layer(
        "timeline_views", mark: tick,
        encoding: [
          ("x", x), ("y", yWithoutAxis), ("color", color), ("tooltip", tooltip),
        ],
        values: views.map(DeviceTimeline.row)),
      VegaLite.layer(
        "timeline_requests", mark: tick,
        encoding: [("x", x), ("y", yWithoutAxis), ("color", color), ("tooltip", tooltip)],
        values: requests.map(DeviceTimeline.row)),
      VegaLite.layer(
        "timeline_events", mark: tick,
        encoding: [("x", x), ("y", yWithoutAxis), ("color", color), ("tooltip", tooltip)],
        values: events.map(DeviceTimeline.row)),
    ]
    layers.append(contentAgeLayer(x: x, color: color, top: ageTop))
    let soc = VegaLite.field(
      "soc", "quantitative", title: "battery (%)",
      extra: [
        (
          "scale",
          .object([
            ("domain", .array([.integer(0), .integer(100)])),
            ("range", .array([.integer(height), .integer(batteryTop)])),
          ])
        ),
        ("axis", .object([("orient", .string("right")), ("values", .array([0, 50, 100].map { .integer($0) }))])),
      ])
    layers.append(
      VegaLite.layer(
        "timeline_battery",
        mark: VegaLite.mark("line", [("color", .string(DeviceTimeline.batteryColor)), ("strokeWidth", .integer(2))]),
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
          ("scale", .object([("color", .string("shared")), ("y", .string("independent"))])),
          ("axis", .object([("y", .string("independent"))])),
        ])
      ),
    ])
    return Chart(
      id: "timeline", title: "Device \(device), day \(day): timeline",
      caption: "What device \(device) did on day \(day) of the run's first replication (from trace.csv, local "
        + "time): each widget's views (fresh, stale or the placeholder), its reload requests and the reloads that "
        + "ran, coloured by how they ended (after a wait: for budget, the minimum interval or the user's sleep; "
        + "failed: jetsam, timeout or stuck; not built: coalesced, ignored or still waiting; the cause is in the "
        + "tooltip); data changes on the server; the app's opens and time in the foreground, its background wakes "
        + "(refused: denied, dropped or expired), pushes sent and delivered; the radio; Low Power Mode and "
        + "charging. Beneath: each widget's content age, the time since the first data change it does "
        + "not show (it climbs while the widget is behind and drops when a reload shows newer data), and the "
        + "battery's charge. One colour means one thing throughout. widgetsim report DIR --day D draws another "
        + "of the \(days) days.",
      spec: spec,
      marks: [
        ("timeline_battery", battery.isEmpty ? 0 : 1), ("timeline_spans", spans.count),
        ("timeline_views", views.count), ("timeline_requests", requests.count), ("timeline_events", events.count),
        ("timeline_content_age", Set(contentAge.map { "\($0.widget)#\($0.segment)" }).count),
      ], wide: true)
  }

  /// Each widget's content age as a line in a strip of its own, one stretch per unbroken run of content (the
  /// placeholder breaks it). Hours on a square-root scale: minutes behind stay visible beside a night's hours.
  func contentAgeLayer(x: JSONValue, color: JSONValue, top: Int) -> JSONValue {
    let peak = contentAge.map(\.ageHours).max() ?? 0
    let ceiling = Swift.max(1, peak.rounded(.up))
    let ticks = [0, 0.25, 1, 4, 12, 24, 48, 96, 168].filter { $0 <= ceiling }
    let age = VegaLite.field(
      "age", "quantitative", title: "content age (h)",
      extra: [
        (
          "scale",
          .object([
            ("type", .string("sqrt")), ("domain", .array([.integer(0), .number(ceiling)])), ("nice", .bool(false)),
            ("range", .array([.integer(top + DeviceTimeline.contentAgeHeight), .integer(top)])),
          ])
        ),
        (
          "axis",
          .object([
            ("orient", .string("right")), ("values", .array(ticks.map { .number($0) })), ("format", .string("~g")),
          ])
        ),
      ])
    let tooltip: JSONValue = .array([
      .object([("field", .string("clock")), ("title", .string("time"))]),
      .object([("field", .string("what")), ("title", .string("line"))]),
      .object([("field", .string("ageText")), ("title", .string("content age"))]),
    ])
    return VegaLite.layer(
      "timeline_content_age",
      mark: VegaLite.mark("line", [("strokeWidth", .integer(2)), ("interpolate", .string("linear"))]),
      encoding: [
        ("x", x), ("y", age), ("color", color), ("detail", .object([("field", .string("segment"))])),
        ("order", .object([("field", .string("order")), ("type", .string("quantitative"))])),
        ("tooltip", tooltip),
      ],
      values: contentAge.map { point in
        VegaLite.row([
          ("start", .number(point.hour)), ("age", .number(point.ageHours)),
          ("what", .string(Meaning.contentAge(point.widget))), ("segment", .string("\(point.widget)#\(point.segment)")),
          ("order", .integer(point.order)), ("clock", .string(ClockText.seconds(Int((point.hour * 3_600).rounded())))),
          ("ageText", .string(DeviceTimeline.ageText(hours: point.ageHours))),
        ])
      })
  }

  /// A content age as it reads: minutes under two hours, else hours.
  static func ageText(hours: Double) -> String {
    hours < 2 ? HTMLText.number(hours * 60, decimals: 0) + " min" : HTMLText.number(hours, decimals: 1) + " h"
  }

  static func row(_ mark: Mark) -> JSONValue {
    var members: [(String, JSONValue)] = [("lane", .string(mark.lane)), ("start", .number(mark.start))]
    if let end = mark.end { members.append(("end", .number(end))) }
    members += [("what", .string(mark.what)), ("clock", .string(mark.clock)), ("detail", .string(mark.detail))]
    return VegaLite.row(members)
  }
}
