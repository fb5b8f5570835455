import Reports
import SimulationEngine
import WidgetModel

/// `widgetsim run --field-log FILE`: every device's field log (replication 0), one JSON object per line, in
/// device order and, within a device, in time order. The format is docs/field-logs.md's.
public enum FieldLogWriter {
  /// The device's opaque id in the log: `device-` and its fleet index.
  public static func deviceID(_ device: Int) -> String { "device-\(device)" }

  /// The lines of one device's log, and its rows of the server's send log.
  public static func lines(_ log: FieldLog, configuration: ScenarioConfiguration) -> (app: String, server: String) {
    var (app, server) = ("", "")
    for entry in FieldLogEntry.entries(of: log, configuration: configuration) {
      if case .serverSent = entry.event { server += entry.serverRow + "\n" } else { app += entry.line + "\n" }
    }
    return (app, server)
  }

  /// The policy's name in the log, as the scenario writes it.
  static func policyName(_ policy: ReloadPolicy) -> String {
    switch policy {
    case .atEnd: "at_end"
    case .after: "after"
    case .never: "never"
    }
  }

  /// Writes every device's log of `configuration`'s first replication to `path` and, with `serverLog`, what
  /// the server sent them to that file (``ServerLogReader``'s format); each atomically. Nothing without either.
  public static func write(_ configuration: ScenarioConfiguration, to path: String?, serverLog: String? = nil)
    throws(AtomicFile.WriteError)
  {
    guard path != nil || serverLog != nil else { return }
    let app = try path.map { (path) throws(AtomicFile.WriteError) in try AtomicFileWriter(path: path) }
    let server = try serverLog.map { (path) throws(AtomicFile.WriteError) in try AtomicFileWriter(path: path) }
    try server?.append(ServerLogReader.header + "\n")
    let schedules = FleetSchedules(configuration)
    for device in 0..<configuration.fleet.devices {
      let (appLines, serverRows) = lines(
        ScenarioRunner.fieldLog(configuration, device: device, schedules: schedules), configuration: configuration)
      try app?.append(appLines)
      try server?.append(serverRows)
    }
    try app?.commit()
    try server?.commit()
  }
}

extension FieldLogEntry {
  /// The time a record of `log` at `at` (its device's clock) is written with: on a clock offset whole minutes
  /// from UTC, to the millisecond.
  static func logTime(_ at: SimTime, of log: FieldLog, configuration: ScenarioConfiguration) -> FieldLogTime {
    let offsetSeconds = Int((log.clockOffset.seconds / 60).rounded()) * 60
    let dayZero = Int64(configuration.startDate.daysSince1970) * 86_400_000_000
    return FieldLogTime(
      utcMicroseconds: dayZero + at.microseconds - Int64(offsetSeconds) * 1_000_000, offsetSeconds: offsetSeconds
    ).truncatedToMilliseconds
  }

  /// A simulated device's log as the entries a reader makes of its lines (the lines are these entries'
  /// ``line``s): times on the device's local clock from the scenario's `start_date`, with its offset to the
  /// minute.
  public static func entries(of log: FieldLog, configuration: ScenarioConfiguration) -> [FieldLogEntry] {
    func time(_ at: SimTime) -> FieldLogTime { logTime(at, of: log, configuration: configuration) }
    let device = FieldLogWriter.deviceID(log.device)
    return log.records.map { record in
      let event: FieldLogEvent
      switch record.event {
      case .timeline(let widget, let next, let entries):
        let configured = configuration.widgets[widget]
        event = .timeline(
          kind: configured.kind, family: configured.family.rawValue,
          policy: FieldLogWriter.policyName(configured.timeline.policy), next: next.map(time), entries: entries)
      case .reloadCall(let kind): event = .reloadCall(kind: kind.map { configuration.kinds[$0] })
      case .appForeground(let fromWidget): event = .appForeground(fromWidget: fromWidget)
      case .appBackground: event = .appBackground
      case .backgroundRefresh: event = .backgroundRefresh
      case .delivered(let push): event = .delivered(push)
      case .activityUpdate(let activity): event = .activityUpdate(activity: configuration.liveActivities[activity].id)
      case .battery(let level, let lowPowerMode, let charging):
        event = .battery(level: (level * 1_000).rounded() / 1_000, lowPower: lowPowerMode, charging: charging)
      case .sent(let push): event = .serverSent(push: push, priority: push.priority)
      }
      return FieldLogEntry(time: time(record.time), device: device, event: event)
    }
  }

  /// The entry as one line of JSON (without the newline).
  public var line: String {
    var text = "{\"t\":\"\(time.text)\",\"device\":\(JSONValue.quoted(device)),\"event\":\"\(event.name)\""
    func string(_ name: String, _ value: String?) {
      text += ",\"\(name)\":" + (value.map { JSONValue.quoted($0) } ?? "null")
    }
    switch event {
    case .timeline(let kind, let family, let policy, let next, let entries):
      string("kind", kind)
      string("family", family)
      string("policy", policy)
      string("next", next?.text)
      text += ",\"entries\":" + (entries.map { "\($0)" } ?? "null")
    case .reloadCall(let kind): string("kind", kind)
    case .appForeground(let fromWidget): text += ",\"from_widget\":" + (fromWidget.map { "\($0)" } ?? "null")
    case .appBackground, .backgroundRefresh, .delivered, .serverSent: break
    case .activityUpdate(let activity): string("activity", activity)
    case .battery(let level, let lowPower, let charging):
      text += ",\"level\":" + (level.map { CSVFormat.number($0, decimals: 3) } ?? "null")
      text += ",\"low_power\":" + (lowPower.map { "\($0)" } ?? "null")
      text += ",\"charging\":" + (charging.map { "\($0)" } ?? "null")
    }
    return text + "}"
  }

  /// A server send as a row of the server's send log: `t` (UTC), `device`, `push`, `priority`.
  public var serverRow: String {
    guard case .serverSent(let push, let priority) = event else { return "" }
    let utc = FieldLogTime(utcMicroseconds: time.utcMicroseconds, offsetSeconds: 0)
    return "\(utc.text),\(CSVFormat.text(device)),\(push.rawValue),\(priority.map { "\($0)" } ?? "")"
  }
}
