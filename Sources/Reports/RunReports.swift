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

/// Writes the reports of one run into a folder, each file atomically.
public enum RunReports {
  /// The files a run writes, in the order they are written (manifest last: its presence marks a complete run).
  public static let files = ["reloads.csv", "budget.csv", "staleness.csv", "summary.csv", "manifest.json"]

  public static func write(
    configuration: ScenarioConfiguration, results: [ReplicationResult], metadata: RunMetadata, to directory: String
  ) throws(AtomicFile.WriteError) {
    try AtomicFile.createDirectory(directory)
    let labels = configuration.instances.map(\.label)
    try AtomicFile.write(ReloadsReport.csv(results: results, labels: labels), to: "\(directory)/reloads.csv")
    try AtomicFile.write(BudgetReport.csv(results: results, labels: labels), to: "\(directory)/budget.csv")
    try AtomicFile.write(StalenessReport.csv(results: results, labels: labels), to: "\(directory)/staleness.csv")
    let summary = RunSummary(results: results, labels: labels)
    try AtomicFile.write(summary.csv(), to: "\(directory)/summary.csv")
    let manifest = Manifest.json(configuration: configuration, results: results, metadata: metadata)
    try AtomicFile.write(manifest, to: "\(directory)/manifest.json")
  }

  /// A folder name from a scenario name: letters, digits, `.`, `_` and `-` kept, anything else `_`, and
  /// no leading dot, so a name cannot climb out of the reports folder.
  public static func folderName(for scenarioName: String) -> String {
    var name = String(scenarioName.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    while name.hasPrefix(".") { name = "_" + name.dropFirst() }
    return name.isEmpty ? "scenario" : name
  }
}

/// The order every hourly report follows: replication, day, hour, instance.
enum HourlyRows {
  static func forEach(
    results: [ReplicationResult], labels: [String],
    _ body: (_ result: ReplicationResult, _ day: Int, _ hour: Int, _ instance: Int, _ label: String) -> Void
  ) {
    for result in results {
      for day in 0..<result.days {
        for hour in 0..<24 {
          for (instance, label) in labels.enumerated() { body(result, day, hour, instance, label) }
        }
      }
    }
  }
}

/// `reloads.csv`: every request counted once, by the hour it was made, with its final outcome.
enum ReloadsReport {
  static let header = "replication,day,hour,widget,cause,outcome,count\n"

  static func csv(results: [ReplicationResult], labels: [String]) -> String {
    var text = header
    HourlyRows.forEach(results: results, labels: labels) { result, day, hour, instance, label in
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

  static func csv(results: [ReplicationResult], labels: [String]) -> String {
    var text = header
    HourlyRows.forEach(results: results, labels: labels) { result, day, hour, instance, label in
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

  static func csv(results: [ReplicationResult], labels: [String]) -> String {
    var text = header
    for result in results {
      for (instance, label) in labels.enumerated() {
        let recorder = result.staleness[instance]
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
    }
    return text
  }
}
