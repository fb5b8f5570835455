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
      #expect(report.header.hasPrefix("replication,") && report.header.hasSuffix("\n"), "\(report.file)")
      #expect(!report.header.dropLast().contains("\n"), "\(report.file)")
    }
  }

  @Test(
    "each report's file holds its header and its rows of every replication, in order",
    arguments: ["quickstart", "weather-push", "delivery-live-activity"])
  func filesHoldTheirRows(_ name: String) throws {
    let loaded = try ScenarioLoader.load(
      path: Repository.path("Scenarios/\(name).yaml"),
      overrides: [try ScenarioOverride("days=2"), try ScenarioOverride("replications=2")])
    let configuration = loaded.configuration
    let results = ScenarioRunner.run(configuration)
    let directory = TestFiles.temporaryDirectory()
    let metadata = RunMetadata(
      widgetsimVersion: "test", scenarioFile: loaded.file, scenarioText: loaded.text, overrides: [],
      wallTimeSeconds: 0)
    try RunReports.write(configuration: configuration, results: results, metadata: metadata, to: directory)
    let subjects = RunSummary.Subjects(configuration)
    for report in RunReports.perReplication {
      let expected = report.header + results.map { report.rows($0, subjects: subjects) }.joined()
      #expect(try TestFiles.read("\(directory)/\(report.file)") == expected, "\(name) \(report.file)")
    }
    #expect(subjects.pushTargets == ["widgets"] + configuration.liveActivities.map(\.id))
    #expect(
      subjects.energySubjects
        == configuration.instances.map(\.label) + ["device", "widget_push"] + configuration.liveActivities.map(\.id)
        + ["app"])
  }
}
