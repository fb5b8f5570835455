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
    switch event {
    case .view(let instance, let placement, let staleness):
      kind = "view"
      (subject, subjectKind) = (instances[instance.index], instanceKinds[instance.index])
      detail = placement.rawValue
      if let staleness {
        outcome = staleness > .zero ? "stale" : "fresh"
        value = CSVFormat.number(staleness.seconds, decimals: 3)
      } else {
        outcome = "placeholder"
      }
    case .dataChange(let index):
      kind = "data_change"
      (subject, subjectKind) = (kinds[index], "data")
    case .appOpen:
      kind = "app_open"
      (subject, subjectKind) = ("app", "app")
    case .appForeground:
      kind = "app_foreground"
      (subject, subjectKind) = ("app", "app")
    case .forceQuit:
      kind = "force_quit"
      (subject, subjectKind) = ("app", "app")
    case .appWake(let channel, let wake):
      kind = "app_wake"
      (subject, subjectKind) = ("app", "app")
      detail = channel.name
      outcome = wake.outcome
      cause = wake.reason
    case .reloadRequest(let instance, let reason, let result):
      kind = "reload_request"
      (subject, subjectKind) = (instances[instance.index], instanceKinds[instance.index])
      (cause, outcome) = (reason.name, result.name)
    case .reload(let instance, let reason, let result):
      kind = "reload"
      (subject, subjectKind) = (instances[instance.index], instanceKinds[instance.index])
      (cause, outcome) = (reason.name, result.name)
    case .content(let instance, let content):
      kind = "content"
      (subject, subjectKind) = (instances[instance.index], instanceKinds[instance.index])
      outcome = content.name
      switch content {
      case .placeholder: break
      case .current: value = "0"
      case .behind(let age): value = CSVFormat.number(age.seconds, decimals: 3)
      }
    case .push(let topic, let counter):
      kind = "push"
      (subject, subjectKind) = (topic.name, "push")
      outcome = counter.name
    case .radio(let network, let phase):
      kind = "radio"
      (subject, subjectKind) = (network.rawValue, "radio")
      detail = phase.name
    case .lowPowerMode:
      kind = "low_power_mode"
      (subject, subjectKind) = ("device", "device")
    case .charging:
      kind = "charging"
      (subject, subjectKind) = ("device", "device")
    case .poweredOff:
      kind = "powered_off"
      (subject, subjectKind) = ("device", "device")
    case .battery(let stateOfCharge):
      kind = "battery"
      (subject, subjectKind) = ("device", "device")
      value = CSVFormat.number(stateOfCharge * 100, decimals: 3)
    }
  }
}
