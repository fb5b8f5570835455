import Reports

/// The per-minute server load of a fleet run: every fetch request per UTC minute, its busiest minute marked,
/// on an axis of clock times.
extension RunCharts {
  func serverLoad() throws(CSVTable.ReadError) -> Chart {
    let table = try table("server_load.csv")
    let minute = try table.column("minute")
    let requests = try table.column("fetch_requests")
    let (rows, rowsName) = table.firstReplication
    var series: [(minute: Int, requests: Double)] = []
    for row in rows {
      guard let m = Int(row[minute]), let value = CSVTable.number(row[requests]) else { continue }
      series.append((m, value))
    }
    // Past ~70 days of minutes the page would be too heavy: keep each hour's busiest minute.
    let hourly = series.count > 100_000
    if hourly { series = RunCharts.busiestMinuteOfEachHour(series) }
    let peak = RunCharts.peakMinute(series)
    let values = series.map {
      VegaLite.row([("day", .number(Double($0.minute) / 1_440)), ("requests", .number($0.requests))])
    }
    let ticks = RunCharts.clockTicks(first: series.first?.minute ?? 0, last: series.last?.minute ?? 0)
    let spec = VegaLite.unit(
      values: [],
      layers: RunCharts.serverLoadLayers(values, peak: peak.values, labelOnLeft: peak.labelOnLeft, ticks: ticks))
    return Chart(
      id: "server-load", title: "Server load: \(peak.text)",
      caption: "All fetch requests (widgets' and the app's) reaching the servers per UTC minute in \(rowsName), "
        + "scaled to the real fleet"
        + (hourly ? "; the busiest minute of each hour (the run is too long to draw every minute)." : "."),
      spec: spec, marks: [("load", values.isEmpty ? 0 : 1), ("peak", peak.values.count)], wide: true)
  }

  /// A tick of the per-minute chart, a time in days, as `day 1 06:00`: clock times, not fractions of a day.
  static let clockLabel =
    "'day ' + floor(datum.value) + ' ' + format(floor(round((datum.value - floor(datum.value)) * 1440) / 60), '02d')"
    + " + ':' + format(round((datum.value - floor(datum.value)) * 1440) % 60, '02d')"

  /// Ticks from minute `first` to `last` at whole hours a few to a day (6 h for up to two days, 12 h to a
  /// week, a day to a month, a week beyond), in days.
  static func clockTicks(first: Int, last: Int) -> [Double] {
    let span = Double(last - first) / 1_440
    let step = span <= 2 ? 0.25 : span <= 7 ? 0.5 : span <= 31 ? 1 : 7
    var tick = (Double(first) / 1_440 / step).rounded(.up) * step
    var ticks: [Double] = []
    while tick <= Double(last) / 1_440 && ticks.count < 200 {
      ticks.append(tick)
      tick += step
    }
    return ticks
  }

  /// The busiest minute of each hour of `series`, in order: a run too long to draw every minute still shows
  /// its peaks.
  static func busiestMinuteOfEachHour(
    _ series: [(minute: Int, requests: Double)]
  ) -> [(minute: Int, requests: Double)] {
    var byHour: [Int: (minute: Int, requests: Double)] = [:]
    for point in series {
      let key = Int((Double(point.minute) / 60).rounded(.down))
      if (byHour[key]?.requests ?? -1) < point.requests { byHour[key] = point }
    }
    return byHour.keys.sorted().compactMap { byHour[$0] }
  }

  /// The busiest minute of `series` (the earliest of equals) as chart data with a short label, the title's
  /// words for it, and whether the label goes left of the point: a label right of a peak in the right half
  /// would run past the plot and be cut.
  static func peakMinute(
    _ series: [(minute: Int, requests: Double)]
  ) -> (values: [JSONValue], text: String, labelOnLeft: Bool) {
    let peak = series.max { $0.requests < $1.requests || ($0.requests == $1.requests && $0.minute > $1.minute) }
    guard let peak, let first = series.first, let last = series.last else { return ([], "no requests", false) }
    let labelOnLeft = Double(peak.minute - first.minute) > Double(last.minute - first.minute) / 2
    let minuteOfDay = ((peak.minute % 1_440) + 1_440) % 1_440
    let dayNumber = Int((Double(peak.minute) / 1_440).rounded(.down))
    let clock = ClockText.minutes(minuteOfDay)
    let text = "peak \(HTMLText.number(peak.requests, decimals: 0)) requests/min on day \(dayNumber) at \(clock) UTC"
    let values = [
      VegaLite.row([
        ("day", .number(Double(peak.minute) / 1_440)), ("requests", .number(peak.requests)),
        // Short, so it fits beside the point on a phone too; the title has the day and time.
        ("label", .string("peak \(HTMLText.number(peak.requests, decimals: 0))/min")),
      ])
    ]
    return (values, text, labelOnLeft)
  }

  /// The server load's layers: the requests per minute as a line, and the peak's point and label drawn on it.
  static func serverLoadLayers(
    _ values: [JSONValue], peak: [JSONValue], labelOnLeft: Bool, ticks: [Double] = []
  ) -> [JSONValue] {
    let x = VegaLite.field(
      "day", "quantitative", title: "UTC time (day from 0, hour:minute)",
      extra: [("axis", .object([("values", .array(ticks.map { .number($0) })), ("labelExpr", .string(clockLabel))]))])
    let y = VegaLite.field("requests", "quantitative", title: "fetch requests per minute (whole fleet)")
    return [
      VegaLite.layer(
        "load", mark: VegaLite.mark("line", [("strokeWidth", .number(1))]), encoding: [("x", x), ("y", y)],
        values: values),
      VegaLite.layer(
        "peak",
        mark: VegaLite.mark(
          "point", [("filled", .bool(true)), ("size", .integer(80)), ("color", .string("#d62728"))]),
        encoding: [("x", x), ("y", y)], values: peak),
      VegaLite.layer(
        "peak_label",
        mark: VegaLite.mark(
          "text",
          [
            ("align", .string(labelOnLeft ? "right" : "left")), ("dx", .integer(labelOnLeft ? -8 : 8)),
            ("dy", .integer(-8)),
          ]),
        encoding: [("x", x), ("y", y), ("text", .object([("field", .string("label"))]))], values: peak),
    ]
  }
}
