import Reports

/// The charts of a run folder, from its CSV reports. Counts are per device and per day (fleet reports sum
/// counts over the simulated devices; state reports are already means per device).
struct RunCharts {
  let directory: String
  let manifest: ManifestFields
  /// At most this many widget instances get a series of their own (the summary tables have them all).
  static let maximumSeries = 12

  var devices: Double { Double(max(1, manifest.integer("devices") ?? 1)) }

  func charts() throws(CSVTable.ReadError) -> [Chart] {
    let reloads = try table("reloads.csv")
    var charts = [
      try reloadsByHour(reloads, by: "cause"), try reloadsByHour(reloads, by: "outcome"),
      try budget(), try staleness(),
    ]
    if let activities = try activityStaleness() { charts.append(activities) }
    charts += [try energy(), try battery()]
    // Run folders written before app_wakes.csv existed have no such file.
    if let wakes = try optionalTable("app_wakes.csv") { charts.append(try appWakes(wakes)) }
    if devices > 1 {
      charts.append(try serverLoad())
      if let peak = try serverPeak() { charts.append(peak) }
    }
    return charts
  }

  func table(_ name: String) throws(CSVTable.ReadError) -> CSVTable { try CSVTable(path: "\(directory)/\(name)") }

  /// A report that folders of older runs lack: nil when the folder has none; one that is there is read as
  /// any other (a device, a FIFO or a file past the limit in its place is an error).
  func optionalTable(_ name: String) throws(CSVTable.ReadError) -> CSVTable? {
    ExistingReports.find([name], in: directory).isEmpty ? nil : try table(name)
  }

  /// The run's replications, as captions say them: the reports of a mean over replications hold one row set,
  /// but the run had the manifest's count.
  var replicationsText: String {
    let count = manifest.integer("replications_completed") ?? manifest.integer("replications") ?? 1
    return "\(count) replication\(count == 1 ? "" : "s")"
  }

  /// Replications and days the reports hold (from their rows: an interrupted run holds fewer replications).
  /// A report of the mean over replications (no `replication` column) counts as one.
  func span(_ table: CSVTable) -> (replications: Double, days: Double) {
    let days = manifest.integer("days") ?? 1
    return (Double(table.replicationCount), Double(max(1, days)))
  }

  /// Widget labels in order of appearance, at most ``maximumSeries``.
  static func labels(_ table: CSVTable, column: Int) -> [String] {
    var seen: [String] = []
    for row in table.rows where !seen.contains(row[column]) {
      seen.append(row[column])
      if seen.count == maximumSeries { break }
    }
    return seen
  }

  // MARK: - Reloads

  func reloadsByHour(_ table: CSVTable, by category: String) throws(CSVTable.ReadError) -> Chart {
    let column = try table.column(category)
    let (replications, days) = span(table)
    let sums = try RunCharts.countsByHour(table) { $0[column] }
    let (spec, marks) = RunCharts.stackedByHour(
      sums, scale: replications * days * devices, layer: "reloads", category: category, measure: "reloads",
      title: "reload requests per device per day")
    return Chart(
      id: "reloads-by-\(category)", title: "Reload requests by hour of day and \(category)",
      caption: "Every reload request in the hour it was made, by its \(category), summed over widget instances; "
        + "mean per device and day over \(Int(days)) days x \(replicationsText).",
      spec: spec, marks: [("reloads", marks)])
  }

  /// The `count` column summed by hour of day (24 values) and by the category `label` gives each row.
  static func countsByHour(
    _ table: CSVTable, label: ([String]) -> String
  ) throws(CSVTable.ReadError) -> [String: [Double]] {
    let hour = try table.column("hour")
    let count = try table.column("count")
    var sums: [String: [Double]] = [:]
    for row in table.rows {
      guard let h = Int(row[hour]), (0..<24).contains(h), let value = CSVTable.number(row[count]) else { continue }
      sums[label(row), default: Array(repeating: 0, count: 24)][h] += value
    }
    return sums
  }

  /// A bar chart over the hours of the day stacked by category: `sums[category][hour] / scale`, one bar per
  /// non-zero (hour, category); returns the specification and the number of bars.
  static func stackedByHour(
    _ sums: [String: [Double]], scale: Double, layer: String, category: String, measure: String, title: String
  ) -> (spec: JSONValue, marks: Int) {
    var values: [JSONValue] = []
    for name in sums.keys.sorted() {
      for h in 0..<24 where (sums[name]?[h] ?? 0) > 0 {
        let value = (sums[name]?[h] ?? 0) / scale
        values.append(VegaLite.row([("hour", .integer(h)), (category, .string(name)), (measure, .number(value))]))
      }
    }
    let spec = VegaLite.unit(
      values: values,
      layers: [
        VegaLite.layer(
          layer, mark: VegaLite.mark("bar"),
          encoding: [
            ("x", VegaLite.hourOfDay), ("y", VegaLite.field(measure, "quantitative", title: title)),
            ("color", VegaLite.field(category, "nominal", title: category)),
          ])
      ])
    return (spec, values.count)
  }

  // MARK: - Budget

  func budget() throws(CSVTable.ReadError) -> Chart {
    let table = try table("budget.csv")
    let hour = try table.column("hour")
    let widget = try table.column("widget")
    let remaining = try table.column("budget_remaining")
    let labels = RunCharts.labels(table, column: widget)
    var samples: [String: [[Double]]] = [:]
    for row in table.rows where labels.contains(row[widget]) {
      guard let h = Int(row[hour]), (0..<24).contains(h), let value = CSVTable.number(row[remaining]) else { continue }
      samples[row[widget], default: Array(repeating: [], count: 24)][h].append(value)
    }
    var values: [JSONValue] = []
    for label in labels {
      for h in 0..<24 {
        let list = samples[label]?[h] ?? []
        guard !list.isEmpty else { continue }
        let mean = list.reduce(0, +) / Double(list.count)
        let band = Percentiles.of(list, at: [0.1, 0.9])
        values.append(
          VegaLite.row([
            ("hour", .integer(h + 1)), ("widget", .string(label)), ("mean", .number(mean)),
            ("p10", .number(band[0])), ("p90", .number(band[1])),
          ]))
      }
    }
    let x = VegaLite.field(
      "hour", "quantitative", title: "end of hour (local time)",
      extra: [("scale", .object([("domain", .array([.integer(0), .integer(24)]))]))])
    let spec = VegaLite.unit(
      values: values,
      layers: [
        VegaLite.layer(
          "budget_band", mark: VegaLite.mark("area", [("opacity", .number(0.18))]),
          encoding: [
            ("x", x), ("y", VegaLite.field("p10", "quantitative", title: "reloads left in the budget")),
            ("y2", .object([("field", .string("p90"))])),
            ("color", VegaLite.field("widget", "nominal", title: "widget")),
          ]),
        VegaLite.layer(
          "budget", mark: VegaLite.mark("line", [("point", .bool(false))]),
          encoding: [
            ("x", x), ("y", VegaLite.field("mean", "quantitative", title: "reloads left in the budget")),
            ("color", VegaLite.field("widget", "nominal", title: "widget")),
          ]),
      ])
    return Chart(
      id: "budget", title: "Reload budget left over the day",
      caption: "Reloads left in each instance's budget at the end of every hour: the line is the mean over days "
        + "and replications, the band the 10th to 90th percentile. Where it reaches 0 the budget ran out.",
      spec: spec, marks: [("budget", labels.count)])
  }

  // MARK: - Energy

  func energy() throws(CSVTable.ReadError) -> Chart {
    let table = try table("energy.csv")
    let hour = try table.column("hour")
    let widget = try table.column("widget")
    let component = try table.column("component")
    let joules = try table.column("joules")
    let (replications, days) = span(table)
    var sums: [String: [Double]] = [:]
    var deviceJoules = 0.0
    var widgetJoules = 0.0
    var tailJoules = 0.0
    for row in table.rows {
      guard let h = Int(row[hour]), (0..<24).contains(h), let value = CSVTable.number(row[joules]) else { continue }
      if row[widget] == "device" {
        deviceJoules += value
        continue
      }
      sums[row[component], default: Array(repeating: 0, count: 24)][h] += value
      widgetJoules += value
      if row[component] == "radio_tail" { tailJoules += value }
    }
    let tailShare = widgetJoules > 0 ? tailJoules / widgetJoules : 0
    // In mWh, as every energy figure of run, sweep and the reports' headlines (energy.csv keeps joules).
    let (spec, marks) = RunCharts.stackedByHour(
      sums, scale: replications * days * EnergyUnits.joulesPerMilliwattHour, layer: "energy", category: "component",
      measure: "mwh", title: "energy per device per day (mWh)")
    let perDay = { (total: Double) in
      HTMLText.number(EnergyUnits.milliwattHours(total / (replications * days)), decimals: 2)
    }
    return Chart(
      id: "energy",
      title:
        "What the phone pays by hour of day: \(HTMLText.number(tailShare * 100, decimals: 1))% in radio tails",
      caption: "Energy the app's design costs the phone (widgets, push wake-ups, Live Activities and the app's own "
        + "runs: phone_mwh_per_day), by component and the hour it was spent; mean per device and day. Radio "
        + "tails: \(HTMLText.number(tailShare * 100, decimals: 1))% of \(perDay(widgetJoules)) mWh a day. The "
        + "device's own baseline and usage (\(perDay(deviceJoules)) mWh a day) are left out so the design's share "
        + "stays visible.",
      spec: spec, marks: [("energy", marks)])
  }

  // MARK: - Battery

  func battery() throws(CSVTable.ReadError) -> Chart {
    let table = try table("battery.csv")
    let (rows, rowsName) = table.firstReplication
    let (points, intervals) = try RunCharts.batteryHours(rows, of: table)
    var layers: [JSONValue] = []
    if !intervals.isEmpty { layers.append(RunCharts.batteryStatesLayer(intervals)) }
    layers.append(RunCharts.stateOfChargeLayer(points))
    let spec = VegaLite.unit(values: [], layers: layers)
    return Chart(
      id: "battery", title: "Battery state of charge",
      caption: "State of charge at the end of every hour in \(rowsName) (for a fleet, the mean "
        + "over devices), with the hours in Low Power Mode and on the charger shaded.",
      spec: spec, marks: [("soc", points.isEmpty ? 0 : 1), ("states", intervals.count)])
  }

  /// The hours `rows` of `battery.csv` hold as chart data: the state of charge at the end of each hour
  /// (`points`), and the spans in Low Power Mode and on the charger (`intervals`, from the start of the hour
  /// a state began to that of the hour it ended; one still on at the end runs to the last hour's end).
  static func batteryHours(
    _ rows: [[String]], of table: CSVTable
  ) throws(CSVTable.ReadError) -> (points: [JSONValue], intervals: [JSONValue]) {
    let day = try table.column("day")
    let hour = try table.column("hour")
    let soc = try table.column("state_of_charge")
    let lowPower = try table.column("low_power_mode")
    let charging = try table.column("charging")
    var points: [JSONValue] = []
    var intervals: [JSONValue] = []
    var open: [String: Double] = [:]
    var last = 0.0
    for row in rows {
      guard let d = Double(row[day]), let h = Double(row[hour]), let charge = CSVTable.number(row[soc]) else {
        continue
      }
      let start = d + h / 24
      last = start + 1.0 / 24
      points.append(VegaLite.row([("day", .number(last)), ("soc", .number(charge))]))
      for (state, column) in [("Low Power Mode", lowPower), ("charging", charging)] {
        let on = row[column] == "1"
        if on && open[state] == nil { open[state] = start }
        if !on, let begun = open.removeValue(forKey: state) {
          intervals.append(
            VegaLite.row([("start", .number(begun)), ("end", .number(start)), ("state", .string(state))]))
        }
      }
    }
    for (state, begun) in open.sorted(by: { $0.key < $1.key }) {
      intervals.append(VegaLite.row([("start", .number(begun)), ("end", .number(last)), ("state", .string(state))]))
    }
    return (points, intervals)
  }

  /// The spans in Low Power Mode and on the charger, shaded behind the line in fixed colours.
  static func batteryStatesLayer(_ intervals: [JSONValue]) -> JSONValue {
    VegaLite.layer(
      "states", mark: VegaLite.mark("rect", [("opacity", .number(0.22))]),
      encoding: [
        ("x", VegaLite.field("start", "quantitative", title: "simulated days")),
        ("x2", .object([("field", .string("end"))])),
        (
          "color",
          VegaLite.field(
            "state", "nominal", title: "shaded",
            extra: [
              (
                "scale",
                .object([
                  ("domain", .array([.string("Low Power Mode"), .string("charging")])),
                  ("range", .array([.string("#e8a33d"), .string("#4caf50")])),
                ])
              )
            ])
        ),
      ], values: intervals)
  }

  /// The state of charge at the end of every hour, as a line on a 0-100% scale.
  static func stateOfChargeLayer(_ points: [JSONValue]) -> JSONValue {
    VegaLite.layer(
      "soc", mark: VegaLite.mark("line"),
      encoding: [
        ("x", VegaLite.field("day", "quantitative", title: "simulated days")),
        (
          "y",
          VegaLite.field(
            "soc", "quantitative", title: "state of charge (%)",
            extra: [("scale", .object([("domain", .array([.integer(0), .integer(100)]))]))])
        ),
      ], values: points)
  }
}
