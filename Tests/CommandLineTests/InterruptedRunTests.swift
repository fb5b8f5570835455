import Reports
import SimulationEngine
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `widgetsim` executable under SIGKILL, and its refusal to overwrite reports.
@Suite(.slow("runs stopped by signals at random moments and resumed")) struct InterruptedRunTests {
  static let scenario = Repository.path("Scenarios/weather-hourly.yaml")

  /// Every report under a final name in `directory` parses completely: a header, rows with the header's
  /// number of cells, a final newline; the manifest is whole.
  static func expectComplete(_ directory: String, _ context: String) throws {
    for name in try TestFiles.list(directory) where !name.contains(".tmp-") {
      let text = try TestFiles.read("\(directory)/\(name)")
      #expect(text.hasSuffix("\n"), "\(context): \(name) does not end with a newline")
      if name.hasSuffix(".csv") {
        let rows = CSVLines.parse(text)
        #expect(rows.count >= 1, "\(context): \(name) is empty")
        let width = rows.first?.count ?? 0
        let ragged = rows.firstIndex { $0.count != width }
        #expect(ragged == nil, "\(context): \(name) row \(ragged.map { $0 + 1 } ?? 0) is cut short")
      } else if name == "manifest.json" {
        #expect(text.hasPrefix("{\n") && text.hasSuffix("\n}\n"), "\(context): manifest.json is not whole")
      }
    }
  }

  @Test func aRunKilledAtTenRandomMomentsLeavesOnlyCompleteReports() throws {
    let directory = TestFiles.temporaryDirectory()
    let arguments = [
      "run", Self.scenario, "--days", "30", "--replications", "3", "--quiet", "--force", "--out", directory,
    ]
    // A whole run first: its duration scales the moments, and its reports are what a killed run must
    // leave intact until it replaces them.
    let started = Subprocess.now()
    let first = try Subprocess.run(arguments)
    let duration = Subprocess.now() - started
    #expect(first.code == 0, "\(first.output)")
    try Self.expectComplete(directory, "after a whole run")
    let moments = RandomStream(seed: StreamSeed(scenarioSeed: 20_261_122))
    for trial in 1...10 {
      // From the first instant to just past the end, where the renames happen.
      let moment = moments.uniform() * duration * 1.1
      let pid = Subprocess.start(arguments, log: "\(directory).log")
      Subprocess.sleep(moment)
      kill(pid, SIGKILL)
      let code = Subprocess.wait(pid)
      #expect(code == 128 + SIGKILL || code == 0, "trial \(trial): exit \(code)")
      try Self.expectComplete(directory, "trial \(trial), killed after \(moment) s")
    }
    // The next run removes what the killed runs left under temporary names, and writes whole reports.
    let last = try Subprocess.run(arguments)
    #expect(last.code == 0, "\(last.output)")
    try Self.expectComplete(directory, "after the last run")
    #expect(try TestFiles.list(directory).filter { $0.contains(".tmp-") } == [])
  }

  @Test func existingReportsAreNotOverwrittenWithoutForce() throws {
    let directory = TestFiles.temporaryDirectory() + "/run"
    let arguments = ["run", Self.scenario, "--days", "1", "--replications", "2", "--quiet", "--out", directory]
    #expect(try Subprocess.run(arguments).code == 0)
    let before = try TestFiles.read("\(directory)/manifest.json")
    let refused = try Subprocess.run(arguments + ["--seed", "2"])
    #expect(refused.code == 2)
    #expect(refused.output.contains("\(directory)/ already holds reports (reloads.csv"), "\(refused.output)")
    #expect(refused.output.contains("pass --force to replace them"))
    #expect(try TestFiles.read("\(directory)/manifest.json") == before)
    let forced = try Subprocess.run(arguments + ["--seed", "2", "--force"])
    #expect(forced.code == 0, "\(forced.output)")
    #expect(try TestFiles.read("\(directory)/manifest.json") != before)
    let resumed = try Subprocess.run(arguments + ["--resume"])
    #expect(resumed.code == 2)
    #expect(resumed.output.contains("only a run stopped by Ctrl-C or SIGTERM can be resumed"), "\(resumed.output)")
  }
}
