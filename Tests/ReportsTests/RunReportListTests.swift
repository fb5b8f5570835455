import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

@testable import Reports

@Suite("The run reports, one per file")
struct RunReportListTests {
  @Test("the report list gives the files in their committed order, each once")
  func fileOrder() {
    // The order shows in the console summary and in manifest.json: it must not change by accident.
    #expect(
      RunReports.files == [
        "reloads.csv", "budget.csv", "staleness.csv", "staleness_histogram.csv", "push.csv", "activities.csv",
        "energy.csv", "battery.csv", "server_load.csv", "server_peak.csv", "app_wakes.csv", "replications.csv",
        "summary.csv",
        "manifest.json",
      ])
    #expect(Set(RunReports.files).count == RunReports.files.count)
    #expect(RunReportWriter.files == RunReports.files)
    for report in RunReports.perReplication {
      let detail = report.header(detail: true)
      #expect(detail.hasPrefix("replication,") && detail.hasSuffix("\n"), "\(report.file)")
      #expect(!detail.dropLast().contains("\n"), "\(report.file)")
      // The default reports (the mean over replications) have no replication column, but for the peak's.
      let mean = report.header(detail: false)
      #expect(mean == (report == ServerPeakReport.self ? detail : report.columns), "\(report.file)")
    }
  }

  @Test(
    "each report's file holds its header and its rows of every replication, in order",
    arguments: ["quickstart", "weather-push", "delivery-live-activity"])
  func filesHoldTheirRows(_ name: String) throws {
    for detail in [true, false] { try filesHoldTheirRows(name, detail: detail) }
  }

  /// With `detail`, every replication's rows in order; without, the rows of the replications' sum as a mean
  /// (and `server_peak.csv` of the busiest replication).
  func filesHoldTheirRows(_ name: String, detail: Bool) throws {
    let loaded = try ScenarioLoader.load(
      path: Repository.path("Scenarios/\(name).yaml"),
      overrides: [try ScenarioOverride("days=2"), try ScenarioOverride("replications=2")])
    let configuration = loaded.configuration
    let results = ScenarioRunner.run(configuration)
    let directory = TestFiles.temporaryDirectory()
    let metadata = RunMetadata(
      widgetsimVersion: "test", scenarioFile: loaded.file, scenarioText: loaded.text, overrides: [],
      wallTimeSeconds: 0)
    try RunReports.write(
      configuration: configuration, results: results, metadata: metadata, to: directory, detail: detail)
    let subjects = RunSummary.Subjects(configuration)
    var sum = results[0]
    for result in results.dropFirst() { sum.merge(result) }
    for report in RunReports.perReplication {
      let expected =
        detail
        ? report.header(detail: true)
          + results.map { report.rows($0, .replication($0.replication, subjects: subjects)) }
          .joined()
        : report == ServerPeakReport.self
          ? report.header(detail: false)  // single devices have no per-second load
          : report.header(detail: false) + report.rows(sum, .mean(of: results.count, subjects: subjects))
      #expect(try TestFiles.read("\(directory)/\(report.file)") == expected, "\(name) \(report.file) \(detail)")
    }
    #expect(subjects.pushTargets == ["widgets"] + configuration.liveActivities.map(\.id))
    #expect(
      subjects.energySubjects
        == configuration.instances.map(\.label) + ["device", "widget_push"] + configuration.liveActivities.map(\.id)
        + ["app"])
  }
}
