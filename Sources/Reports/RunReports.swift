import SimulationEngine
import WidgetModel

/// What a run's reports say about where it came from.
public struct RunMetadata: Sendable {
  public var widgetsimVersion: String
  public var scenarioFile: String
  public var scenarioText: String
  public var overrides: [String]
  public var wallTimeSeconds: Double

  public init(
    widgetsimVersion: String, scenarioFile: String, scenarioText: String, overrides: [String], wallTimeSeconds: Double
  ) {
    self.widgetsimVersion = widgetsimVersion
    self.scenarioFile = scenarioFile
    self.scenarioText = scenarioText
    self.overrides = overrides
    self.wallTimeSeconds = wallTimeSeconds
  }
}

/// Writes the reports of one run into a folder as replications finish, so memory holds one replication's
/// results at a time however many replications run. Every file goes to a temporary name and is renamed
/// into place by ``finish(metadata:)``; a run that stops early leaves no report under its final name.
public final class RunReportWriter {
  /// The files a run writes, in the order they are committed (manifest last: it marks a complete run).
  public static let files = [
    "reloads.csv", "budget.csv", "staleness.csv", "staleness_histogram.csv", "push.csv", "activities.csv", "energy.csv",
    "battery.csv",
    "server_load.csv", "replications.csv", "summary.csv", "manifest.json",
  ]

  public let directory: String
  let configuration: ScenarioConfiguration
  let labels: [String]
  private let reloads: AtomicFileWriter
  private let budget: AtomicFileWriter
  private let staleness: AtomicFileWriter
  private let stalenessHistogram: AtomicFileWriter
  private let push: AtomicFileWriter
  private let activities: AtomicFileWriter
  private let energy: AtomicFileWriter
  private let battery: AtomicFileWriter
  private let serverLoad: AtomicFileWriter
  private let replications: AtomicFileWriter
  /// `devices.csv`, when per-device figures were asked for.
  private let devices: AtomicFileWriter?
  let serverScale: Double
  let energySubjects: [String]
  let pushTargets: [String]
  let activityLabels: [String]
  private var summary: RunSummary.Accumulator
  public private(set) var eventsHandled: UInt64 = 0
  private var fingerprints: [ReplicationFingerprint] = []
  private var nextReplication = 0

  /// Starts the reports of a run in `directory`; with `resuming`, the reports already there (an interrupted
  /// run's, holding `resuming.replicationsCompleted` replications) are carried over and the run goes on
  /// from the next replication.
  public init(
    configuration: ScenarioConfiguration, directory: String, perDevice: Bool = false, resuming: RunProgress? = nil
  ) throws(AtomicFile.WriteError) {
    self.directory = directory
    self.configuration = configuration
    labels = configuration.instances.map(\.label)
    activityLabels = configuration.liveActivities.map(\.id)
    pushTargets = ["widgets"] + activityLabels
    energySubjects = labels + ["device", "widget_push"] + activityLabels
    try AtomicFile.createDirectory(directory)
    reloads = try AtomicFileWriter(path: "\(directory)/reloads.csv")
    budget = try AtomicFileWriter(path: "\(directory)/budget.csv")
    staleness = try AtomicFileWriter(path: "\(directory)/staleness.csv")
    stalenessHistogram = try AtomicFileWriter(path: "\(directory)/staleness_histogram.csv")
    push = try AtomicFileWriter(path: "\(directory)/push.csv")
    activities = try AtomicFileWriter(path: "\(directory)/activities.csv")
    energy = try AtomicFileWriter(path: "\(directory)/energy.csv")
    battery = try AtomicFileWriter(path: "\(directory)/battery.csv")
    serverLoad = try AtomicFileWriter(path: "\(directory)/server_load.csv")
    replications = try AtomicFileWriter(path: "\(directory)/replications.csv")
    devices = perDevice ? try AtomicFileWriter(path: "\(directory)/devices.csv") : nil
    serverScale = configuration.fleet.scale
    summary = RunSummary.Accumulator(subjects: RunSummary.Subjects(configuration))
    var streams: [(AtomicFileWriter, String)] = [
      (reloads, ReloadsReport.header), (budget, BudgetReport.header), (staleness, StalenessReport.header),
      (stalenessHistogram, StalenessHistogramReport.header),
      (push, PushReport.header), (activities, ActivitiesReport.header), (energy, EnergyReport.header),
      (battery, BatteryReport.header), (serverLoad, ServerLoadReport.header),
    ]
    if let devices { streams.append((devices, DevicesReport.header)) }
    guard let resuming else {
      for (writer, header) in streams { try writer.append(header) }
      try replications.append(ReplicationsReport.header)
      return
    }
    for (writer, header) in streams { try writer.append(contentsOf: writer.path, header: header) }
    try restoreReplications(resuming)
  }

  /// Carries over an interrupted run's replications.csv: its values go back into the summary (they are
  /// written at full precision, so the summary comes out as if the run had never stopped).
  private func restoreReplications(_ progress: RunProgress) throws(AtomicFile.WriteError) {
    let path = replications.path
    let text: String
    do {
      text = try TextFile.read(path)
    } catch {
      throw AtomicFile.WriteError(path: path, reason: error.reason)
    }
    let rows = CSVLines.parse(text)
    let keys = summary.rowKeys
    let expected = progress.replicationsCompleted * keys.count
    guard rows.first == CSVLines.parse(ReplicationsReport.header).first, rows.count - 1 == expected else {
      throw AtomicFile.WriteError(
        path: path,
        reason: "holds \(rows.count - 1) rows; the interrupted run's \(progress.replicationsCompleted) "
          + "replications need \(expected)")
    }
    for replication in 0..<progress.replicationsCompleted {
      var values: [MetricValue] = []
      for (offset, key) in keys.enumerated() {
        let row = rows[1 + replication * keys.count + offset]
        guard row.count == 6, row[1] == "\(replication)", row[2] == key.metric, row[3] == key.widget else {
          throw AtomicFile.WriteError(
            path: path, reason: "row \(2 + replication * keys.count + offset) is not \(key.metric) of \(key.widget)")
        }
        values.append(MetricValue(metric: row[2], widget: row[3], unit: row[5], value: Double(row[4]) ?? .nan))
      }
      summary.add(values)
    }
    try replications.append(text)
    nextReplication = progress.replicationsCompleted
    eventsHandled = progress.eventsHandled
    fingerprints = progress.fingerprints
  }

  /// Replications added so far (including those of a resumed run).
  public var replicationsCompleted: Int { nextReplication }

  /// Adds one replication's results; replications must arrive in order (0, 1, 2...).
  public func add(_ result: ReplicationResult, devices summaries: [DeviceSummary] = []) throws(AtomicFile.WriteError) {
    precondition(result.replication == nextReplication, "replication \(result.replication) out of order")
    nextReplication += 1
    try reloads.append(ReloadsReport.rows(result, labels: labels))
    try budget.append(BudgetReport.rows(result, labels: labels))
    try staleness.append(StalenessReport.rows(result, labels: labels, activities: activityLabels))
    try stalenessHistogram.append(StalenessHistogramReport.rows(result, labels: labels, activities: activityLabels))
    try push.append(PushReport.rows(result, targets: pushTargets))
    try activities.append(ActivitiesReport.rows(result, kinds: activityLabels))
    try energy.append(EnergyReport.rows(result, subjects: energySubjects))
    try battery.append(BatteryReport.rows(result))
    try serverLoad.append(ServerLoadReport.rows(result, scale: serverScale))
    try devices?.append(DevicesReport.rows(summaries, replication: result.replication))
    let values = summary.values(of: result)
    try replications.append(ReplicationsReport.rows(values, seed: configuration.seed, replication: result.replication))
    summary.add(values)
    eventsHandled += result.eventsHandled
    fingerprints.append(result.fingerprint)
  }

  /// Commits every report and returns the run's summary. With `stoppedEarly` (Ctrl-C, SIGTERM) the reports
  /// hold the replications finished so far, the manifest says `"complete": false`, and resume.txt lets
  /// `widgetsim run --resume` carry on.
  @discardableResult
  public func finish(metadata: RunMetadata, stoppedEarly: Bool = false) throws(AtomicFile.WriteError) -> RunSummary {
    let result = summary.summary
    try reloads.commit()
    try budget.commit()
    try staleness.commit()
    try stalenessHistogram.commit()
    try push.commit()
    try activities.commit()
    try energy.commit()
    try battery.commit()
    try serverLoad.commit()
    try replications.commit()
    try devices?.commit()
    if devices == nil { AtomicFile.remove("\(directory)/devices.csv") }  // an earlier run's, now stale
    AtomicFile.remove("\(directory)/report.html")  // made from the old reports: `--report` writes it anew
    try AtomicFile.write(result.csv(), to: "\(directory)/summary.csv")
    let resume = "\(directory)/\(RunProgress.file)"
    if stoppedEarly {
      let progress = RunProgress(
        identity: RunProgress.identity(metadata, perDevice: devices != nil), eventsHandled: eventsHandled,
        fingerprints: fingerprints)
      try AtomicFile.write(progress.text, to: resume)
    } else {
      AtomicFile.remove(resume)
    }
    let manifest = Manifest.json(
      configuration: configuration, eventsHandled: eventsHandled, fingerprints: fingerprints, metadata: metadata,
      complete: !stoppedEarly)
    try AtomicFile.write(manifest, to: "\(directory)/manifest.json")
    return result
  }
}

/// Writing a run whose results are all in hand.
public enum RunReports {
  public static var files: [String] { RunReportWriter.files }

  /// Writes every report of `results` (in replication order) into `directory`.
  @discardableResult
  public static func write(
    configuration: ScenarioConfiguration, results: [ReplicationResult], metadata: RunMetadata, to directory: String
  ) throws(AtomicFile.WriteError) -> RunSummary {
    let writer = try RunReportWriter(configuration: configuration, directory: directory)
    for result in results { try writer.add(result) }
    return try writer.finish(metadata: metadata)
  }

  /// A folder name from a scenario name: letters, digits, `.`, `_` and `-` kept, anything else `_`, and
  /// no leading dot, so a name cannot climb out of the reports folder.
  public static func folderName(for scenarioName: String) -> String {
    var name = String(scenarioName.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    while name.hasPrefix(".") { name = "_" + name.dropFirst() }
    // Well under the 255 bytes a file name may have.
    return name.isEmpty ? "scenario" : String(name.prefix(100))
  }
}

/// The order every hourly report follows: day, hour, then the labelled items (instances, push targets,
/// energy subjects).
enum HourlyRows {
  static func forEach(
    _ result: ReplicationResult, labels: [String],
    _ body: (_ result: ReplicationResult, _ day: Int, _ hour: Int, _ instance: Int, _ label: String) -> Void
  ) {
    for day in 0..<result.days {
      for hour in 0..<24 {
        for (instance, label) in labels.enumerated() { body(result, day, hour, instance, label) }
      }
    }
  }
}

/// `reloads.csv`: every request counted once, by the hour it was made, with its final outcome.
enum ReloadsReport {
  static let header = "replication,day,hour,widget,cause,outcome,count\n"

  /// The rows of one replication.
  static func rows(_ result: ReplicationResult, labels: [String]) -> String {
    var text = ""
    HourlyRows.forEach(result, labels: labels) { result, day, hour, instance, label in
      for cause in ReloadCause.allCases {
        for outcome in ReloadOutcome.allCases {
          let count = result.reloadCount(day: day, hour: hour, instance: instance, cause: cause, outcome: outcome)
          guard count > 0 else { continue }
          text +=
            "\(result.replication),\(day),\(hour),\(CSVFormat.text(label)),\(cause.name),\(outcome.name),\(count)\n"
        }
      }
    }
    return text
  }
}

/// `budget.csv`: each instance's budget remaining at the end of every hour.
enum BudgetReport {
  static let header = "replication,day,hour,widget,budget_remaining\n"

  /// The rows of one replication.
  static func rows(_ result: ReplicationResult, labels: [String]) -> String {
    var text = ""
    HourlyRows.forEach(result, labels: labels) { result, day, hour, instance, label in
      let remaining = result.budgetRemaining(day: day, hour: hour, instance: instance)
      text +=
        "\(result.replication),\(day),\(hour),\(CSVFormat.text(label)),\(CSVFormat.number(remaining, decimals: 2))\n"
    }
    return text
  }
}

/// `staleness.csv`: per replication and instance, what the user saw at views.
enum StalenessReport {
  static let header =
    "replication,widget,views,placeholder_views,stale_views,staleness_mean_s,staleness_p50_s,staleness_p95_s,staleness_max_s\n"

  /// The rows of one replication: widget instances, then Live Activity kinds (seen at Lock Screen views).
  /// Widget instances, then Live Activity kinds, each with its staleness recorder.
  static func subjects(_ result: ReplicationResult, labels: [String], activities: [String])
    -> [(label: String, recorder: StalenessRecorder)]
  {
    labels.enumerated().map { ($0.element, result.staleness[$0.offset]) }
      + activities.enumerated().map { ($0.element, result.activityStaleness[$0.offset]) }
  }

  static func rows(_ result: ReplicationResult, labels: [String], activities: [String] = []) -> String {
    var text = ""
    for (label, recorder) in subjects(result, labels: labels, activities: activities) {
      let seconds = recorder.seconds
      let cells = [
        "\(result.replication)", CSVFormat.text(label), "\(recorder.views)", "\(recorder.placeholderViews)",
        "\(recorder.staleViews)", CSVFormat.number(seconds.count > 0 ? seconds.mean : .nan, decimals: 1),
        CSVFormat.number(recorder.quantiles.quantile(0.5), decimals: 1),
        CSVFormat.number(recorder.quantiles.quantile(0.95), decimals: 1),
        CSVFormat.number(seconds.count > 0 ? seconds.maximum : .nan, decimals: 1),
      ]
      text += cells.joined(separator: ",") + "\n"
    }
    return text
  }
}

/// `push.csv`: pushes by the hour they were sent, target (`widgets` or a Live Activity id) and priority.
enum PushReport {
  static let header = "replication,day,hour,target,priority,sent,delivered,superseded,throttled\n"

  static func rows(_ result: ReplicationResult, targets: [String]) -> String {
    var text = ""
    HourlyRows.forEach(result, labels: targets) { result, day, hour, target, label in
      for priority in [10, 5] {
        let counts = PushCounter.allCases.map {
          result.pushCount(day: day, hour: hour, target: target, priority: priority, counter: $0)
        }
        guard counts.contains(where: { $0 > 0 }) else { continue }
        let cells =
          ["\(result.replication)", "\(day)", "\(hour)", CSVFormat.text(label), "\(priority)"] + counts.map(String.init)
        text += cells.joined(separator: ",") + "\n"
      }
    }
    return text
  }
}

/// `activities.csv`: one row per attempt to start a Live Activity for a single device; for a fleet, one row per
/// Live Activity kind and ending with the attempts summed (`started`/`rejected` are then counts).
enum ActivitiesReport {
  static let header =
    "replication,activity,started,rejected,updates_delivered,updates_throttled,ended_by,active_s,lock_screen_s,"
    + "start_time_s,updates_sent,updates_superseded,updates_jetsam\n"

  static func rows(_ result: ReplicationResult, kinds: [String]) -> String {
    let end = SimTime.zero + .days(Int64(result.days))
    var text = ""
    if result.devices == 1 {
      for record in result.activities {
        let cells = [
          "\(result.replication)", CSVFormat.text(record.label), record.rejection == nil ? "1" : "0",
          record.rejection == nil ? "0" : "1", "\(record.updatesDelivered)", "\(record.updatesThrottled)",
          record.ending.name,
          CSVFormat.number(record.activeSeconds(simulationEnd: end), decimals: 1),
          CSVFormat.number(record.lockScreenSeconds(simulationEnd: end), decimals: 1),
          CSVFormat.number(record.startTime.seconds, decimals: 1), "\(record.updatesSent)",
          "\(record.updatesSuperseded)",
          "\(record.updatesJetsam)",
        ]
        text += cells.joined(separator: ",") + "\n"
      }
      return text
    }
    for (kind, label) in kinds.enumerated() {
      for ending in ActivityEnding.allCases {
        let totals = result.activityTotals(kind: kind, ending: ending)
        guard totals.attempts > 0 else { continue }
        let rejected = ending == .rejectedCap || ending == .rejectedPushBudget
        let cells = [
          "\(result.replication)", CSVFormat.text(label), rejected ? "0" : "\(totals.attempts)",
          rejected ? "\(totals.attempts)" : "0", "\(totals.updatesDelivered)", "\(totals.updatesThrottled)",
          ending.name,
          CSVFormat.number(totals.activeSeconds, decimals: 1), CSVFormat.number(totals.lockScreenSeconds, decimals: 1),
          "",
          "\(totals.updatesSent)", "\(totals.updatesSuperseded)", "\(totals.updatesJetsam)",
        ]
        text += cells.joined(separator: ",") + "\n"
      }
    }
    return text
  }
}

/// `energy.csv`: joules per device by hour, subject (widget instance, `device`, `widget_push`, Live Activity)
/// and component (for a fleet, the mean over its devices).
enum EnergyReport {
  static let header = "replication,day,hour,widget,component,joules\n"

  static func rows(_ result: ReplicationResult, subjects: [String]) -> String {
    var text = ""
    let devices = Double(Swift.max(1, result.devices))
    HourlyRows.forEach(result, labels: subjects) { result, day, hour, subject, label in
      for component in EnergyComponent.allCases {
        let joules = result.joules(day: day, hour: hour, subject: subject, component: component) / devices
        guard joules != 0 else { continue }
        text += "\(result.replication),\(day),\(hour),\(CSVFormat.text(label)),\(component.name),"
        text += CSVFormat.number(joules, decimals: 6) + "\n"
      }
    }
    return text
  }
}

/// `battery.csv`: at the end of every hour, the state of charge in percent, and the share of devices in Low Power
/// Mode and charging (0 or 1 for one device; mean and shares over a fleet).
enum BatteryReport {
  static let header = "replication,day,hour,state_of_charge,low_power_mode,charging\n"

  static func rows(_ result: ReplicationResult) -> String {
    var text = ""
    let stateOfCharge = result.stateOfCharge
    let lowPower = result.lowPowerModeShare
    let charging = result.chargingShare
    func share(_ value: Double) -> String { value == 0 || value == 1 ? "\(Int(value))" : CSVFormat.number(value) }
    for index in 0..<(result.days * 24) {
      let cells = [
        "\(result.replication)", "\(index / 24)", "\(index % 24)",
        CSVFormat.number(stateOfCharge[index] * 100, decimals: 2), share(lowPower[index]), share(charging[index]),
      ]
      text += cells.joined(separator: ",") + "\n"
    }
    return text
  }
}

/// `server_load.csv`: what the app's servers see per UTC minute, scaled to the real fleet.
enum ServerLoadReport {
  static let header = "replication,minute,day,time,fetch_requests,fetch_bytes,pushes_sent,pushes_delivered\n"

  static func rows(_ result: ReplicationResult, scale: Double) -> String {
    let load = result.serverLoad
    var text = ""
    for slot in 0..<load.minuteCount {
      let minute = slot + ServerLoad.firstMinute
      let day = minute >= 0 ? minute / 1_440 : (minute - 1_439) / 1_440
      let clock = minute - day * 1_440
      let hours = clock / 60
      let minutes = clock % 60
      let time = "\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
      let cells = [
        "\(result.replication)", "\(minute)", "\(day)", time,
        CSVFormat.number(Double(load.fetches[slot]) * scale, decimals: 2),
        CSVFormat.number(Double(load.bytes[slot]) * scale, decimals: 0),
        CSVFormat.number(Double(load.pushesSent[slot]) * scale, decimals: 2),
        CSVFormat.number(Double(load.pushesDelivered[slot]) * scale, decimals: 2),
      ]
      text += cells.joined(separator: ",") + "\n"
    }
    return text
  }
}

/// `devices.csv` (`--per-device`): one row per simulated device and replication.
enum DevicesReport {
  static let header =
    "replication,device,timezone_offset_h,widgets_installed,reloads_per_day,staleness_p95_s,joules_per_day,"
    + "min_state_of_charge\n"

  static func rows(_ summaries: [DeviceSummary], replication: Int) -> String {
    var text = ""
    for device in summaries {
      let cells = [
        "\(replication)", "\(device.device)", CSVFormat.number(device.clockOffsetHours, decimals: 3),
        "\(device.widgetsInstalled)", CSVFormat.number(device.reloadsPerDay, decimals: 3),
        CSVFormat.number(device.stalenessP95Seconds, decimals: 1), CSVFormat.number(device.joulesPerDay, decimals: 3),
        CSVFormat.number(device.minimumStateOfCharge * 100, decimals: 2),
      ]
      text += cells.joined(separator: ",") + "\n"
    }
    return text
  }
}
