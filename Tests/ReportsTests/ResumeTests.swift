import Fleets
import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

@testable import Reports

@Suite("Resuming an interrupted run")
struct ResumeTests {
  static func metadata(_ loaded: LoadedScenario) -> RunMetadata {
    RunMetadata(
      widgetsimVersion: "test", scenarioFile: loaded.file, scenarioText: loaded.text, overrides: ["days=4"],
      wallTimeSeconds: 0)
  }

  /// Every report of a run written in one go, or stopped after `stopAfter` replications and resumed.
  static func reports(_ loaded: LoadedScenario, stopAfter: Int?, perDevice: Bool, detail: Bool) throws -> [String:
    String]
  {
    let configuration = loaded.configuration
    let directory = TestFiles.temporaryDirectory()
    var writer = try RunReportWriter(
      configuration: configuration, directory: directory, perDevice: perDevice, detail: detail)
    for replication in 0..<configuration.replications {
      if replication == stopAfter {
        try writer.finish(metadata: metadata(loaded), stoppedEarly: true)
        let progress = try RunProgress.read(directory: directory)
        #expect(progress.replicationsCompleted == replication)
        #expect(progress.identity == RunProgress.identity(metadata(loaded), perDevice: perDevice, detail: detail))
        #expect(try TestFiles.read("\(directory)/manifest.json").contains("\"complete\": false"))
        // The default reports keep the replications' sum beside resume.txt; --detail's keep only the busiest
        // seconds and herds there.
        #expect(TextFile.isReadable("\(directory)/\(RunTotal.file)"))
        writer = try RunReportWriter(
          configuration: configuration, directory: directory, perDevice: perDevice, detail: detail,
          resuming: progress)
      }
      let (result, devices) = FleetRunner.run(configuration, replication: replication, jobs: 1, perDevice: perDevice)
      try writer.add(result, devices: devices)
    }
    try writer.finish(metadata: metadata(loaded))
    var files: [String: String] = [:]
    for name in try TestFiles.list(directory) { files[name] = try TestFiles.read("\(directory)/\(name)") }
    // What the console says of the busiest seconds and herds, as if it were a file.
    files["(largest peaks and herds)"] = (writer.largestPeaks + writer.herds).joined(separator: "\n")
    return files
  }

  @Test(
    "reports of a run stopped and resumed equal those of a run never stopped, byte for byte",
    arguments: [("quickstart", 2), ("delivery-live-activity", 1), ("fleet-capacity", 3)], [true, false])
  func resumedEqualsUninterrupted(_ scenario: (name: String, stopAfter: Int), detail: Bool) throws {
    let (name, stopAfter) = scenario
    // Resuming is about replications, not days or devices: 2 days, and 20 of the fleet's devices.
    var overrides = [try ScenarioOverride("days=2"), try ScenarioOverride("replications=4")]
    if name == "fleet-capacity" { overrides.append(try ScenarioOverride("fleet.devices=20")) }
    let loaded = try ScenarioLoader.load(path: Repository.path("Scenarios/\(name).yaml"), overrides: overrides)
    let perDevice = name == "fleet-capacity"
    let whole = try Self.reports(loaded, stopAfter: nil, perDevice: perDevice, detail: detail)
    let resumed = try Self.reports(loaded, stopAfter: stopAfter, perDevice: perDevice, detail: detail)
    #expect(whole.keys.sorted() == resumed.keys.sorted())
    #expect(resumed[RunProgress.file] == nil, "a finished run removes resume.txt")
    #expect(resumed[RunTotal.file] == nil, "a finished run removes resume.bin")
    for (file, text) in whole {
      #expect(text == resumed[file], "\(file) differs after resuming")
    }
    #expect(whole["manifest.json"]?.contains("\"complete\": true") == true)
  }

  @Test(
    "a resume refuses reports (--detail) or a sum of replications (resume.bin) cut short or not matching resume.txt",
    arguments: [true, false])
  func damagedReportsAreRefused(detail: Bool) throws {
    let loaded = try ScenarioLoader.loadDefault(overrides: [try ScenarioOverride("days=2")])
    let configuration = loaded.configuration
    let directory = TestFiles.temporaryDirectory()
    let writer = try RunReportWriter(configuration: configuration, directory: directory, detail: detail)
    for replication in 0..<2 { try writer.add(ScenarioRunner.runReplication(configuration, replication: replication)) }
    try writer.finish(metadata: Self.metadata(loaded), stoppedEarly: true)
    let progress = try RunProgress.read(directory: directory)
    #expect(progress.replicationsCompleted == 2)

    let more = RunProgress(
      identity: progress.identity, eventsHandled: progress.eventsHandled,
      fingerprints: progress.fingerprints + progress.fingerprints)
    #expect(throws: AtomicFile.WriteError.self) {
      _ = try RunReportWriter(configuration: configuration, directory: directory, detail: detail, resuming: more)
    }
    if detail {
      let reloads = try TestFiles.read("\(directory)/reloads.csv")
      try TestFiles.write(String(reloads.dropLast(3)), to: "\(directory)/reloads.csv")
    } else {
      let path = "\(directory)/\(RunTotal.file)"
      let bytes = try TextFile.readBytes(path, limit: 1 << 30)
      try AtomicFile.write(bytes: Array(bytes.dropLast(3)), to: path)
    }
    let error = #expect(throws: AtomicFile.WriteError.self) {
      _ = try RunReportWriter(configuration: configuration, directory: directory, detail: detail, resuming: progress)
    }
    #expect(
      error?.reason
        == (detail
          ? "is cut short (it does not end with a newline)"
          : "at byte 0: the checksum does not match: the file is damaged or was cut short"))
    try TestFiles.write("widgetsim-run-resume 1 0123\nevents x\n", to: "\(directory)/\(RunProgress.file)")
    #expect(throws: RunProgress.ResumeError.self) { _ = try RunProgress.read(directory: directory) }
  }
}
