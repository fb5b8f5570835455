import Reports

/// Which device and day the report's timeline shows (`widgetsim report DIR --device N --day D`); nil: the
/// traced device, the first day.
public struct TimelineChoice: Sendable, Equatable {
  public var device: Int?
  public var day: Int?

  public init(device: Int? = nil, day: Int? = nil) {
    self.device = device
    self.day = day
  }

  var isExplicit: Bool { device != nil || day != nil }
}

/// The device timeline, as Battery Historian draws Android's battery history: one day of the device traced
/// with `run --trace` (trace.csv), a row per thing that happens (views, requests and reloads per widget,
/// data changes, the app, its wakes, pushes, the radio, Low Power Mode, charging), then how old the data
/// each widget shows is through the day (its content age) and the battery's charge, on the device's local
/// time of day.
struct DeviceTimeline {
  /// One mark: an instant (`end` nil) or a span, in hours since the chosen day's local midnight.
  struct Mark {
    let lane: String
    let start: Double
    var end: Double?
    /// What colours it: one of ``DeviceTimeline/palette``'s meanings.
    let what: String
    let clock: String
    var detail: String
  }

  let device: Int
  let day: Int
  let days: Int
  /// Rows in order, top to bottom.
  let lanes: [String]
  var spans: [Mark] = []
  var views: [Mark] = []
  var requests: [Mark] = []
  var events: [Mark] = []
  /// (hour, state of charge %) through the day: at midnight and at the end of every hour.
  var battery: [(hour: Double, percent: Double)] = []
  /// The widgets with a content-age line, in lane order.
  var contentWidgets: [String] = []
  /// The content-age lines' points, in the order they are drawn.
  var contentAge: [ContentAge.Point] = []

  /// The note report.html shows when the folder has no trace.
  static let missingNote =
    "No device timeline: this folder has no trace.csv. Run the scenario with widgetsim run FILE --trace 0 (or "
    + "another device number, as devices.csv numbers them) to record one device's events; widgetsim report DIR "
    + "--day D then draws its day D."

  /// The timeline of `choice` from `directory/trace.csv`; nil when there is none and nothing was asked for.
  /// A device that was not traced or a day outside the run is an input error.
  static func read(directory: String, choice: TimelineChoice, days: Int) throws -> DeviceTimeline? {
    let path = "\(directory)/\(TraceReport.file)"
    guard !ExistingReports.find([TraceReport.file], in: directory).isEmpty else {
      guard !choice.isExplicit else {
        throw HTMLReport.InputError(
          message: "\(directory): no \(TraceReport.file) to draw a timeline from; rerun the scenario with "
            + "--trace \(choice.device ?? 0) (and --force, or another --out) to record that device")
      }
      return nil
    }
    let table = try CSVTable(path: path)
    let deviceColumn = try table.column("device")
    let traced = table.rows.first.flatMap { Int($0[deviceColumn]) } ?? 0
    if let device = choice.device, device != traced {
      throw HTMLReport.InputError(
        message: "--device \(device): \(path) traces device \(traced); rerun with --trace \(device) to draw "
          + "device \(device)")
    }
    let day = choice.day ?? 0
    guard (0..<max(1, days)).contains(day) else {
      throw HTMLReport.InputError(
        message: "--day \(day): the run has \(days) day\(days == 1 ? "" : "s"), numbered 0"
          + (days > 1 ? " to \(days - 1)" : ""))
    }
    return try DeviceTimeline(table, device: traced, day: day, days: days)
  }

  init(_ table: CSVTable, device: Int, day: Int, days: Int) throws(CSVTable.ReadError) {
    self.device = device
    self.day = day
    self.days = days
    let column = TraceColumns(
      try table.column("seconds"), try table.column("kind"), try table.column("subject"),
      try table.column("detail"), try table.column("cause"), try table.column("outcome"),
      try table.column("duration_s"), try table.column("value"), try table.column("time"))
    var widgets: [String] = []
    for row in table.rows where ["view", "reload_request", "reload"].contains(row[column.kind]) {
      if !widgets.contains(row[column.subject]) && widgets.count < RunCharts.maximumSeries {
        widgets.append(row[column.subject])
      }
    }
    lanes =
      widgets.flatMap { ["views: \($0)", "requests: \($0)", "reloads: \($0)"] }
      + ["data changes", "app", "app wakes", "pushes", "radio", "Low Power Mode", "charging", "switched off"]
    let dayStart = Double(day) * 86_400
    var age = ContentAge(widgets: widgets, dayStart: dayStart)
    for row in table.rows {
      guard let seconds = Double(row[column.seconds]) else { continue }
      if row[column.kind] == "content" {
        age.shows(
          row[column.subject], row[column.outcome], age: CSVTable.number(row[column.value]), at: seconds)
        continue
      }
      let start = (seconds - dayStart) / 3_600
      let duration = CSVTable.number(row[column.duration]).map { $0 / 3_600 }
      let kind = row[column.kind]
      if kind == "battery" {
        if (0...24).contains(start), let percent = CSVTable.number(row[column.value]) {
          battery.append((start, percent))
        }
        continue
      }
      // States that began on an earlier day and reach into this one are drawn from midnight; a request is
      // drawn on the day it was made.
      let state = DeviceTimeline.stateKinds.contains(kind)
      let end = state ? duration.map { start + $0 } : nil
      guard start < 24, start >= 0 || (end ?? -1) > 0 else { continue }
      guard let mark = DeviceTimeline.mark(row, column, kind: kind, start: max(0, start), end: end.map { min(24, $0) })
      else { continue }
      if mark.lane.hasPrefix("views: ") || mark.lane.hasPrefix("requests: ") || mark.lane.hasPrefix("reloads: ") {
        guard lanes.contains(mark.lane) else { continue }
      }
      switch kind {
      case "view": views.append(mark)
      case "reload_request": requests.append(mark)
      default: if state { spans.append(mark) } else { events.append(mark) }
      }
    }
    contentAge = age.finish()
    contentWidgets = widgets.filter { widget in contentAge.contains { $0.widget == widget } }
  }

  /// The kinds of trace.csv's rows that are a state's span (drawn as rectangles).
  static let stateKinds: Set<String> = ["app_foreground", "radio", "low_power_mode", "charging", "powered_off"]

  /// Where each column of trace.csv is.
  struct TraceColumns {
    let seconds, kind, subject, detail, cause, outcome, duration, value, time: Int
    init(
      _ seconds: Int, _ kind: Int, _ subject: Int, _ detail: Int, _ cause: Int, _ outcome: Int, _ duration: Int,
      _ value: Int, _ time: Int
    ) {
      (self.seconds, self.kind, self.subject, self.detail) = (seconds, kind, subject, detail)
      (self.cause, self.outcome, self.duration, self.value, self.time) = (cause, outcome, duration, value, time)
    }
  }

  /// The mark of one trace row (not a battery point): its lane, colour and tooltip.
  static func mark(_ row: [String], _ column: TraceColumns, kind: String, start: Double, end: Double?) -> Mark? {
    let subject = row[column.subject]
    let clock = row[column.time]
    let make = { (lane: String, what: String, detail: String) in
      Mark(lane: lane, start: start, end: end, what: what, clock: clock, detail: detail)
    }
    let outcome = row[column.outcome]
    switch kind {
    case "view":
      let staleness = CSVTable.number(row[column.value]).map { " " + HTMLText.number($0, decimals: 0) + " s" } ?? ""
      let what =
        switch outcome {
        case "fresh": Meaning.freshView
        case "stale": Meaning.staleView
        default: Meaning.placeholderView
        }
      return make("views: \(subject)", what, "\(row[column.detail]) view\(staleness)")
    case "reload_request":
      let wait = CSVTable.number(row[column.duration]).map { " after " + HTMLText.number($0, decimals: 0) + " s" }
      return make(
        "requests: \(subject)", meaning(ofOutcome: outcome), "\(row[column.cause]): ended \(outcome)\(wait ?? "")")
    case "reload":
      return make("reloads: \(subject)", meaning(ofOutcome: outcome), "\(outcome) for \(row[column.cause])")
    case "data_change": return make("data changes", Meaning.dataChange, subject)
    case "app_open": return make("app", Meaning.appInUse, "opened")
    case "force_quit": return make("app", Meaning.forceQuit, "")
    case "app_foreground": return make("app", Meaning.appInUse, "in the foreground")
    case "app_wake":
      let reason = row[column.cause].isEmpty ? "" : " (\(row[column.cause]))"
      return make("app wakes", meaning(ofWake: outcome), "\(row[column.detail]) \(outcome)\(reason)")
    case "push":
      return make(
        "pushes", outcome == "sent" ? Meaning.pushSent : Meaning.pushDelivered, "\(subject) push \(outcome)")
    case "radio":
      let phase = row[column.detail]
      return make("radio", phase == "tail" ? Meaning.radioTail : Meaning.radioTransfer, "\(subject) \(phase)")
    case "low_power_mode": return make("Low Power Mode", Meaning.lowPowerMode, "")
    case "charging": return make("charging", Meaning.charging, "")
    case "powered_off": return make("switched off", Meaning.switchedOff, "battery ran flat")
    default: return nil
    }
  }
}
