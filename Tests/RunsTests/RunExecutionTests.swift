import CommandSupport
import Reports
import ScenarioFiles
import TestSupport
import Testing

@testable import Runs

/// What a run printed: standard output and standard error.
struct Printed {
  let output = SynchronizedText()
  let error = SynchronizedText()
  var console: Console {
    Console(output: { [output] in output.append($0) }, error: { [error] in error.append($0) })
  }
}

/// A stop asked for from the `after`-th question on (0-based), with SIGTERM's status.
func stop(after questions: Int) -> StopRequest {
  let asked = SynchronizedInt()
  return StopRequest(
    listen: {},
    isRequested: {
      asked.add(1)
      return asked.load() > questions
    }, exitStatus: { 143 })
}

/// The quickstart scenario, shortened.
func quickstart(days: Int = 2, replications: Int = 3) throws -> LoadedScenario {
  try ScenarioLoader.load(
    path: Repository.path("Scenarios/quickstart.yaml"),
    overrides: [try ScenarioOverride("days=\(days)"), try ScenarioOverride("replications=\(replications)")])
}

/// Every report of a run folder, by name.
func reports(_ directory: String) throws -> [String: String] {
  var files: [String: String] = [:]
  for name in RunReports.files where name != "manifest.json" {
    files[name] = try TestFiles.read("\(directory)/\(name)")
  }
  return files
}

@Suite("Running a scenario into a folder")
struct RunExecutionTests {
  @Test("a run writes every report, no temporaries, and prints the summary's headline lines")
  func writesReportsAndSummary() throws {
    let loaded = try quickstart()
    let directory = TestFiles.temporaryDirectory() + "/run"
    let printed = Printed()
    let summary = try RunExecution(loaded, overrides: ["days=2"], directory: directory, version: "test")
      .run(console: printed.console, stop: .never)

    #expect(try TestFiles.list(directory) == (RunReports.files + [OutputFolder.lockName]).sorted())
    #expect(summary.row("reloads_per_day", widget: "headlines")?.values.count == 3)
    let lines = printed.output.text.split(separator: "\n").map(String.init)
    let labels = loaded.configuration.instances.map(\.label)
    // What the phone pays, the assumptions it rests on, then (3 replications) the intervals' warning close
    // the summary.
    #expect(lines.count == 6 + labels.count)
    let phone = lines.dropLast(2).last
    #expect(phone?.hasPrefix("what the phone pays (widgets, the app's own runs, push wake-ups, radio): ") == true)
    #expect(phone?.hasSuffix("] % of its battery a day") == true)
    let assumptions: String =
      "assumptions: network Wi-Fi 50% of hours, else LTE (device.network, the default: a panel's share of time "
      + "on Wi-Fi, low confidence); battery 12.98 Wh (linear), Low Power Mode below 20% (device.battery, "
      + "device.low_power_mode); the app in the background: no background refresh, dormant 3.0 days after its "
      + "last launch (app)"
    #expect(lines.dropLast().last == assumptions)
    #expect(lines.last?.hasPrefix("warning: 3 replications: each interval is 4.3 standard errors") == true)
    #expect(lines[0].hasPrefix("quickstart: 2 days x 3 replications, \(labels.count) widget instances, "))
    #expect(lines[1] == "reports: \(directory)/ (\(RunReports.files.joined(separator: ", ")))")
    #expect(lines[2] == "per widget, mean over replications [95% CI]:")
    for (line, label) in zip(lines.dropFirst(3).dropLast(3), labels) {
      #expect(line.hasPrefix("  \(label): reloads/day "))
      #expect(line.contains("staleness p95 "))
      #expect(line.contains(", energy (widget alone) ") && line.hasSuffix(" mWh/day"))
    }
    #expect(printed.error.text.isEmpty, "no estimate for small work, no progress line off a terminal")
    let manifest = try TestFiles.read("\(directory)/manifest.json")
    #expect(manifest.contains("\"widgetsim_version\": \"test\""))
    #expect(manifest.contains("\"overrides\": [\"days=2\"]"))
  }

  @Test("quiet prints nothing; --per-device adds devices.csv")
  func quietPerDevice() throws {
    let directory = TestFiles.temporaryDirectory()
    let printed = Printed()
    try RunExecution(
      try quickstart(replications: 1), overrides: [], directory: directory, perDevice: true, quiet: true,
      version: "test"
    ).run(console: printed.console, stop: .never)
    #expect(printed.output.text.isEmpty && printed.error.text.isEmpty)
    #expect(try TestFiles.list(directory) == (RunReports.files + ["devices.csv", OutputFolder.lockName]).sorted())
  }

  @Test("reports already in the folder are refused (exit 2) and kept; --force replaces them")
  func refusesExistingReports() throws {
    let loaded = try quickstart(replications: 1)
    let directory = TestFiles.temporaryDirectory()
    let first = RunExecution(loaded, overrides: [], directory: directory, quiet: true, version: "test")
    try first.run(console: Printed().console, stop: .never)
    let before = try reports(directory)

    let changed = try quickstart(days: 3, replications: 1)
    let refused = RunExecution(changed, overrides: [], directory: directory, quiet: true, version: "test")
    let failure = try #require(throws: CommandFailure.self) {
      try refused.run(console: Printed().console, stop: .never)
    }
    #expect(failure.status == 2)
    #expect(failure.message.hasPrefix("error: \(directory)/ already holds reports (reloads.csv, budget.csv, "))
    #expect(failure.message.hasSuffix("pass --force to replace them, or choose another --out"))
    #expect(try reports(directory) == before)

    var forced = refused
    forced.existing = .replace
    try forced.run(console: Printed().console, stop: .never)
    #expect(try reports(directory) != before)
  }

  @Test("stopped after a replication: its reports are kept, and --resume ends as an uninterrupted run")
  func stopThenResume() throws {
    let loaded = try quickstart(replications: 3)
    let reference = TestFiles.temporaryDirectory()
    try RunExecution(loaded, overrides: [], directory: reference, quiet: true, version: "test")
      .run(console: Printed().console, stop: .never)

    let directory = TestFiles.temporaryDirectory()
    var execution = RunExecution(loaded, overrides: [], directory: directory, quiet: true, version: "test")
    // RunExecution asks before each replication and FleetRunner before each device: the third question is
    // the one before replication 1.
    let failure = try #require(throws: CommandFailure.self) {
      try execution.run(console: Printed().console, stop: stop(after: 2))
    }
    #expect(failure.status == 143)
    #expect(failure.message.hasPrefix("interrupted: 1 of 3 replications finished; their reports are in \(directory)/"))
    #expect(try TestFiles.read("\(directory)/manifest.json").contains("\"complete\": false"))
    #expect(try TestFiles.list(directory).contains(RunProgress.file))

    // Other overrides may not resume it.
    var other = RunExecution(
      try quickstart(days: 3, replications: 3), overrides: ["days=3"], directory: directory, quiet: true,
      existing: .resume, version: "test")
    let mismatch = try #require(throws: CommandFailure.self) { try other.run(console: Printed().console, stop: .never) }
    #expect(mismatch.status == 2)
    #expect(mismatch.message.contains("holds an interrupted run of a different scenario"))
    other.existing = .refuse
    let refusal = try #require(throws: CommandFailure.self) { try other.run(console: Printed().console, stop: .never) }
    #expect(refusal.message.contains("--resume to carry on the interrupted run there"))

    execution.existing = .resume
    try execution.run(console: Printed().console, stop: .never)
    #expect(try reports(directory) == reports(reference))
    #expect(!(try TestFiles.list(directory).contains(RunProgress.file)))
  }

  @Test(
    "replications side by side stopped mid-batch keep their whole batches, and --resume ends as an uninterrupted run")
  func sideBySideStopThenResume() throws {
    // A phone over a day: 128 replications a thread per batch (the most).
    let loaded = try quickstart(days: 1, replications: 300)
    #expect(RunExecution.replicationsPerThread(loaded.configuration) == 128)
    let reference = TestFiles.temporaryDirectory()
    try RunExecution(loaded, overrides: [], directory: reference, jobs: 2, quiet: true, version: "test")
      .run(console: Printed().console, stop: .never)

    let directory = TestFiles.temporaryDirectory()
    var execution = RunExecution(loaded, overrides: [], directory: directory, jobs: 2, quiet: true, version: "test")
    // Batches of 256 (128 per thread): one question before each batch, and two for each replication (before it
    // starts, before its device), so batch 0 asks 513 and the 520th question comes in batch 1, whose
    // replications (some already in a thread's partial sum) are all left for --resume.
    let failure = try #require(throws: CommandFailure.self) {
      try execution.run(console: Printed().console, stop: stop(after: 520))
    }
    #expect(failure.status == 143)
    #expect(failure.message.hasPrefix("interrupted: 256 of 300 replications finished"))
    let perReplication = (try TestFiles.read("\(reference)/replications.csv").split(separator: "\n").count - 1) / 300
    #expect(
      try TestFiles.read("\(directory)/replications.csv").split(separator: "\n").count == 1 + 256 * perReplication)
    execution.existing = .resume
    try execution.run(console: Printed().console, stop: .never)
    #expect(try reports(directory) == reports(reference))
  }

  @Test("stopped before the first replication: nothing is written, and the stop's status is the exit status")
  func stopBeforeFirstReplication() throws {
    let directory = TestFiles.temporaryDirectory()
    let execution = RunExecution(try quickstart(), overrides: [], directory: directory, version: "test")
    let failure = try #require(throws: CommandFailure.self) {
      try execution.run(console: Printed().console, stop: stop(after: 0))
    }
    #expect(
      failure
        == CommandFailure(
          status: 143,
          message: "interrupted before the first replication (or batch of replications) finished: nothing written"))
    #expect(ExistingReports.find(ExistingReports.runFiles, in: directory).isEmpty)
  }

  @Test("--resume without an interrupted run is bad input")
  func resumeWithoutProgress() throws {
    let directory = TestFiles.temporaryDirectory()
    let execution = RunExecution(
      try quickstart(), overrides: [], directory: directory, existing: .resume, version: "test")
    let failure = try #require(throws: CommandFailure.self) {
      try execution.run(console: Printed().console, stop: .never)
    }
    #expect(failure.status == 2)
    #expect(failure.message.hasPrefix("error: \(directory)/resume.txt: cannot resume"))
  }

  @Test("the default folder is Reports/ and the scenario's name, made safe")
  func defaultDirectory() throws {
    let loaded = try quickstart()
    #expect(RunExecution(loaded, overrides: [], directory: nil, version: "test").directory == "Reports/quickstart")
  }
}
