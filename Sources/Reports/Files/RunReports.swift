import Results
import WidgetModel

/// The reports of a run, and writing a run whose results are all in hand.
public enum RunReports {
  /// The reports that grow by a block of rows per replication, in the order they are written and committed.
  static let perReplication: [any RunReport.Type] = [
    ReloadsReport.self, BudgetReport.self, StalenessReport.self, StalenessHistogramReport.self, PushReport.self,
    ActivitiesReport.self, EnergyReport.self, BatteryReport.self, ServerLoadReport.self, ServerPeakReport.self,
    AppWakesReport.self,
  ]

  /// The files a run writes, in the order they are committed (manifest last: it marks a complete run).
  public static let files = perReplication.map { $0.file } + [ReplicationsReport.file, "summary.csv", "manifest.json"]

  /// Writes every report of `results` (in replication order) into `directory`; with `detail`, every
  /// replication's rows (`run --detail`).
  @discardableResult
  public static func write(
    configuration: ScenarioConfiguration, results: [ReplicationResult], metadata: RunMetadata, to directory: String,
    detail: Bool = false
  ) throws(AtomicFile.WriteError) -> RunSummary {
    let writer = try RunReportWriter(configuration: configuration, directory: directory, detail: detail)
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
