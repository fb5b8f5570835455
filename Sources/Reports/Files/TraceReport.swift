import SimulationEngine
import WidgetModel

/// `trace.csv` (`widgetsim run --trace DEVICE`): everything one device did in the run's first replication,
/// one row per event or state span, in time order. The data behind report.html's device timeline.
public enum TraceReport {
  public static let file = "trace.csv"
  public static let columns =
    "device,day,time,seconds,kind,subject,subject_kind,detail,cause,outcome,duration_s,value\n"

  /// The rows of device `device`'s `records` (on the measured days' clock, in time order).
  public static func csv(_ records: [TraceRecord], device: Int, configuration: ScenarioConfiguration) -> String {
    let subjects = RunSummary.Subjects(configuration)
    let kinds = configuration.kinds
    var text = columns
    for record in records {
      let row = TraceRow(
        record.event, instances: subjects.instances, instanceKinds: subjects.instanceKinds, kinds: kinds)
      let micros = record.time.microseconds
      let day = micros / 86_400_000_000
      let second = (micros % 86_400_000_000) / 1_000_000
      let clock = ClockText.seconds(Int(second))
      text +=
        "\(device),\(day),\(clock),\(CSVFormat.number(record.time.seconds, decimals: 3)),\(row.kind),"
        + "\(CSVFormat.text(row.subject)),\(row.subjectKind),\(row.detail),\(row.cause),\(row.outcome),"
        + "\(record.duration.map { CSVFormat.number($0.seconds, decimals: 3) } ?? ""),\(row.value)\n"
    }
    return text
  }

  /// Adds trace.csv to the run's reports, committed with them.
  public static func write(
    _ records: [TraceRecord], device: Int, configuration: ScenarioConfiguration, into set: ReportSet
  ) throws(AtomicFile.WriteError) {
    try set.write(csv(records, device: device, configuration: configuration), to: file)
  }
}

/// The cells of one trace row after its time: what happened, to whom, and its figures.
struct TraceRow {
  var kind: String
  var subject = ""
  var subjectKind = ""
  var detail = ""
  var cause = ""
  var outcome = ""
  var value = ""

  init(_ event: TraceEvent, instances: [String], instanceKinds: [String], kinds: [String]) {
    (kind, subject, subjectKind) = TraceRow.subject(
      of: event, instances: instances, instanceKinds: instanceKinds, kinds: kinds)
    (detail, cause, outcome, value) = TraceRow.figures(of: event)
  }

  /// What happened and to whom: the event's kind, and its subject (a widget instance, a kind of data, the
  /// app, a push topic, a radio or the device) with the subject's kind.
  static func subject(
    of event: TraceEvent, instances: [String], instanceKinds: [String], kinds: [String]
  ) -> (kind: String, subject: String, subjectKind: String) {
    switch event {
    case .view(let instance, _, _): ("view", instances[instance.index], instanceKinds[instance.index])
    case .dataChange(let index): ("data_change", kinds[index], "data")
    case .appOpen: ("app_open", "app", "app")
    case .appForeground: ("app_foreground", "app", "app")
    case .forceQuit: ("force_quit", "app", "app")
    case .appWake: ("app_wake", "app", "app")
    case .reloadRequest(let instance, _, _):
      ("reload_request", instances[instance.index], instanceKinds[instance.index])
    case .reload(let instance, _, _): ("reload", instances[instance.index], instanceKinds[instance.index])
    case .content(let instance, _): ("content", instances[instance.index], instanceKinds[instance.index])
    case .push(let kind, _): ("push", kind.row.traceTopic.description, "push")
    case .radio(let network, _): ("radio", network.rawValue, "radio")
    case .lowPowerMode: ("low_power_mode", "device", "device")
    case .charging: ("charging", "device", "device")
    case .poweredOff: ("powered_off", "device", "device")
    case .battery: ("battery", "device", "device")
    }
  }

  /// The event's figures: its detail, cause, outcome and value cells, empty where it has none.
  static func figures(of event: TraceEvent) -> (detail: String, cause: String, outcome: String, value: String) {
    switch event {
    case .view(_, let placement, let staleness):
      guard let staleness else { return (placement.rawValue, "", "placeholder", "") }
      let outcome = staleness > .zero ? "stale" : "fresh"
      return (placement.rawValue, "", outcome, CSVFormat.number(staleness.seconds, decimals: 3))
    case .appWake(let channel, let wake):
      return (channel.name, wake.reason, wake.outcome, "")
    case .reloadRequest(_, let reason, let result), .reload(_, let reason, let result):
      return ("", reason.name, result.name, "")
    case .content(_, let content):
      switch content {
      case .placeholder: return ("", "", content.name, "")
      case .current: return ("", "", content.name, "0")
      case .behind(let age): return ("", "", content.name, CSVFormat.number(age.seconds, decimals: 3))
      }
    case .push(_, let counter):
      return ("", "", counter.name, "")
    case .radio(_, let phase):
      return (phase.name, "", "", "")
    case .battery(let stateOfCharge):
      return ("", "", "", CSVFormat.number(stateOfCharge * 100, decimals: 3))
    case .dataChange, .appOpen, .appForeground, .forceQuit, .lowPowerMode, .charging, .poweredOff:
      return ("", "", "", "")
    }
  }
}
