import Reports
import SimulationEngine
import WidgetModel

/// `widgetsim run --field-log FILE`: every device's field log (replication 0), one JSON object per line, in
/// device order and, within a device, in time order. The format is docs/field-logs.md's.
public enum FieldLogWriter {
  /// The device's opaque id in the log: `device-` and its fleet index.
  public static func deviceID(_ device: Int) -> String { "device-\(device)" }

  /// The lines of one device's log.
  public static func lines(_ log: FieldLog, configuration: ScenarioConfiguration) -> String {
    let offsetSeconds = Int((log.clockOffset.seconds / 60).rounded()) * 60
    let dayZero = Int64(configuration.startDate.daysSince1970) * 86_400_000_000
    func time(_ at: SimTime) -> String {
      let local = dayZero + at.microseconds
      return FieldLogTime(utcMicroseconds: local - Int64(offsetSeconds) * 1_000_000, offsetSeconds: offsetSeconds)
        .text
    }
    let device = JSONValue.quoted(deviceID(log.device))
    var text = ""
    for record in log.records {
      text += "{\"t\":\"\(time(record.time))\",\"device\":\(device),\"event\":"
      switch record.event {
      case .timeline(let widget, let next, let entries):
        let configured = configuration.widgets[widget]
        text +=
          "\"timeline\",\"kind\":\(JSONValue.quoted(configured.kind)),\"family\":\"\(configured.family.rawValue)\","
          + "\"policy\":\"\(policyName(configured.timeline.policy))\",\"next\":"
          + (next.map { "\"\(time($0))\"" } ?? "null") + ",\"entries\":\(entries)"
      case .reloadCall(let kind):
        text += "\"reload_call\",\"kind\":" + (kind.map { JSONValue.quoted(configuration.kinds[$0]) } ?? "null")
      case .appForeground(let fromWidget):
        text += "\"app_foreground\",\"from_widget\":\(fromWidget)"
      case .appBackground: text += "\"app_background\""
      case .backgroundRefresh: text += "\"background_refresh\""
      case .silentPush: text += "\"silent_push\""
      case .widgetPush: text += "\"widget_push\""
      case .activityUpdate(let activity):
        text += "\"activity_update\",\"activity\":\(JSONValue.quoted(configuration.liveActivities[activity].id))"
      case .battery(let level, let lowPowerMode, let charging):
        text +=
          "\"battery\",\"level\":\(CSVFormat.number(level, decimals: 3)),\"low_power\":\(lowPowerMode),"
          + "\"charging\":\(charging)"
      }
      text += "}\n"
    }
    return text
  }

  /// The policy's name in the log, as the scenario writes it.
  static func policyName(_ policy: ReloadPolicy) -> String {
    switch policy {
    case .atEnd: "at_end"
    case .after: "after"
    case .never: "never"
    }
  }

  /// Writes every device's log of `configuration`'s first replication to `path`, atomically.
  public static func write(_ configuration: ScenarioConfiguration, to path: String) throws(AtomicFile.WriteError) {
    let writer = try AtomicFileWriter(path: path)
    for device in 0..<configuration.fleet.devices {
      try writer.append(lines(ScenarioRunner.fieldLog(configuration, device: device), configuration: configuration))
    }
    try writer.commit()
  }
}
