import Reports

/// Staleness at views: every widget, control and Live Activity kind by the age of what it showed, and Live
/// Activities' stale dates.
extension RunCharts {
  func staleness() throws(CSVTable.ReadError) -> Chart {
    let table = try table("staleness_histogram.csv")
    let widget = try table.column("widget")
    let bin = try table.column("bin")
    let views = try table.column("views")
    let labels = RunCharts.labels(table, column: widget)
    var counts: [String: [String: Double]] = [:]
    var totals: [String: Double] = [:]
    for row in table.rows where labels.contains(row[widget]) {
      let value = CSVTable.number(row[views]) ?? 0
      counts[row[widget], default: [:]][row[bin], default: 0] += value
      totals[row[widget], default: 0] += value
    }
    // Controls and Live Activities share the chart with widgets: their legend entries say what they are.
    let kinds = try subjectKinds()
    var values: [JSONValue] = []
    for label in labels {
      let total = totals[label] ?? 0
      for (order, name) in StalenessHistogramReport.bins.enumerated() {
        let count = counts[label]?[name] ?? 0
        values.append(
          VegaLite.row([
            ("bin", .string(name)), ("order", .integer(order)),
            ("widget", .string(RunCharts.legendEntry(label, kind: kinds[label]))),
            ("share", .number(total > 0 ? count / total : 0)), ("views", .number(count)),
          ]))
      }
    }
    let spec = VegaLite.unit(values: values, layers: [RunCharts.stalenessLayer()])
    return Chart(
      id: "staleness", title: "Staleness at views",
      caption: "How old the displayed content was at each view, as a share of the instance's views over all "
        + "replications: fresh is current data; placeholder views found no content.",
      spec: spec, marks: [("staleness", values.count)])
  }

  /// A subject's legend entry: a control's and a Live Activity's say what they are, a widget's is its label.
  static func legendEntry(_ label: String, kind: String?) -> String {
    switch kind {
    case "control": "\(label) (control)"
    case "activity": "\(label) (Live Activity)"
    default: label
    }
  }

  /// Bars of each subject's share of views by the age of what they showed, side by side in each age bin
  /// (in the histogram's order), on a square-root scale so the rare old ages stay visible.
  static func stalenessLayer() -> JSONValue {
    VegaLite.layer(
      "staleness", mark: VegaLite.mark("bar"),
      encoding: [
        (
          "x",
          VegaLite.field(
            "bin", "ordinal", title: "age of the content the user saw",
            extra: [("sort", .object([("field", .string("order"))]))])
        ),
        (
          "y",
          VegaLite.field(
            "share", "quantitative", title: "share of views (square-root scale)",
            extra: [
              ("axis", .object([("format", .string("%"))])), ("scale", .object([("type", .string("sqrt"))])),
            ])
        ),
        ("color", VegaLite.field("widget", "nominal", title: "widget")),
        ("xOffset", .object([("field", .string("widget"))])),
      ])
  }

  /// What `staleness.csv` says each labelled subject is (`widget`, `control`, `activity`); empty for a folder
  /// written before the column existed.
  func subjectKinds() throws(CSVTable.ReadError) -> [String: String] {
    guard let table = try optionalTable("staleness.csv"), let widget = try? table.column("widget"),
      let kind = try? table.column("subject_kind")
    else { return [:] }
    var kinds: [String: String] = [:]
    for row in table.rows { kinds[row[widget]] = row[kind] }
    return kinds
  }

  /// Live Activities' staleness from `summary.csv`: per activity, the share of views that found an update sent
  /// but not shown, and the shares of Lock Screen and Dynamic Island views that found it past its stale date.
  /// Nil when the run has no Live Activity.
  func activityStaleness() throws(CSVTable.ReadError) -> Chart? {
    let activities = try subjectKinds().filter { $0.value == "activity" }.map(\.key)
    guard !activities.isEmpty else { return nil }
    let table = try table("summary.csv")
    let metric = try table.column("metric")
    let widget = try table.column("widget")
    let mean = try table.column("mean")
    let measures = [
      ("stale_view_share", "update sent, not yet shown"),
      ("lock_screen_stale_date_view_share", "past its stale date (Lock Screen)"),
      ("dynamic_island_stale_date_view_share", "past its stale date (Dynamic Island)"),
    ]
    var values: [JSONValue] = []
    for row in table.rows where activities.contains(row[widget]) {
      guard let order = measures.firstIndex(where: { $0.0 == row[metric] }), let share = CSVTable.number(row[mean])
      else { continue }
      values.append(
        VegaLite.row([
          ("measure", .string(measures[order].1)), ("order", .integer(order)), ("activity", .string(row[widget])),
          ("share", .number(share)),
        ]))
    }
    guard !values.isEmpty else { return nil }
    let spec = VegaLite.unit(
      values: values,
      layers: [
        VegaLite.layer(
          "activities", mark: VegaLite.mark("bar"),
          encoding: [
            (
              "x",
              VegaLite.field(
                "measure", "ordinal", title: "what the view found",
                extra: [("sort", .object([("field", .string("order"))]))])
            ),
            (
              "y",
              VegaLite.field(
                "share", "quantitative", title: "share of views",
                extra: [("axis", .object([("format", .string("%"))]))])
            ),
            ("color", VegaLite.field("activity", "nominal", title: "Live Activity")),
            ("xOffset", .object([("field", .string("activity"))])),
          ])
      ])
    return Chart(
      id: "activity-staleness", title: "Live Activities at views: behind and past their stale date",
      caption: "Mean over replications of the share of views (Lock Screen and Dynamic Island) that found an "
        + "update sent but not yet shown, and of Lock Screen and Dynamic Island views that found a running "
        + "activity past its stale date (stale_after). A kind without a stale date or without Dynamic Island "
        + "views has no bar for it.",
      spec: spec, marks: [("activities", values.count)])
  }
}
