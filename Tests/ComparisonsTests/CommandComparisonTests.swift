import CommandSupport
import Reports
import TestSupport
import Testing

@testable import Comparisons

/// `compare` (``RunComparison``) and the comparison half of `check` (``BaselineCheck``), without the command
/// line: what they read, what they refuse to write over, and the comparison.
@Suite("compare and check's comparison")
struct CommandComparisonTests {
  static let storedBaseline = Repository.path("Scenarios/regression/baseline.csv")
  static let quiet = Console(output: { _ in }, error: { _ in })

  /// A run folder of the regression candidate.
  static func candidateFolder() throws -> String {
    let run = try runTable("Scenarios/regression/candidate.yaml")
    return String(run.path.dropLast("/replications.csv".count))
  }

  @Test("compare.csv's folder: --out, else the candidate's folder, or the current folder for a file")
  func directory() {
    let folder = TestFiles.temporaryDirectory()
    #expect(RunComparison(baseline: "b", candidate: folder).directory == folder)
    #expect(RunComparison(baseline: "b", candidate: "\(folder)/replications.csv").directory == ".")
    #expect(RunComparison(baseline: "b", candidate: folder, out: "elsewhere").directory == "elsewhere")
  }

  @Test("the candidate's scenario: as its manifest names it, with its text; none for a file")
  func candidateScenario() throws {
    let folder = try Self.candidateFolder()
    let scenario = try RunComparison(baseline: Self.storedBaseline, candidate: folder).candidateScenario(limit: 1 << 20)
    #expect(scenario.file == Repository.path("Scenarios/regression/candidate.yaml"))
    #expect(scenario.text == (try TestFiles.read(Repository.path("Scenarios/regression/candidate.yaml"))))
    let file = RunComparison(baseline: Self.storedBaseline, candidate: Self.storedBaseline)
    #expect(try file.candidateScenario(limit: 1 << 20).file == nil)
    let tooLarge = #expect(throws: CommandFailure.self) {
      try RunComparison(baseline: Self.storedBaseline, candidate: folder).candidateScenario(limit: 10)
    }
    #expect(tooLarge?.status == 2)
  }

  @Test("compare: an output on an input is refused (exit 2); otherwise compare.csv, and exit 1 on a failed gate")
  func compare() throws {
    let folder = try Self.candidateFolder()
    let comparison = RunComparison(baseline: Self.storedBaseline, candidate: folder)
    let refused = #expect(throws: CommandFailure.self) {
      try comparison.run(scenarioLimit: 1 << 20, console: Self.quiet) { _, _ in
        CIReporting(junit: "\(folder)/replications.csv")
      }
    }
    #expect(refused?.status == 2)
    #expect(refused?.message.contains("is the candidate, which this command reads") == true)
    var annotated: String?
    let failed = #expect(throws: CommandFailure.self) {
      try comparison.run(scenarioLimit: 1 << 20, console: Self.quiet) { file, _ in
        annotated = file
        return CIReporting()
      }
    }
    #expect(failed == CommandFailure(status: 1))
    #expect(annotated == Repository.path("Scenarios/regression/candidate.yaml"))
    #expect(try TestFiles.read("\(folder)/compare.csv").hasPrefix("metric,widget,"))
  }

  @Test("check: a gate the baseline cannot match fails before the run; the run's reports may not land on inputs")
  func baselineCheck() throws {
    let badGate = #expect(throws: CommandFailure.self) {
      try BaselineCheck(
        baseline: Self.storedBaseline,
        comparison: GatedComparison(gates: [try Gate(parsing: "joules_per_day@nowhere:+5%")]))
    }
    #expect(badGate?.status == 2)
    let folder = try Self.candidateFolder()
    let check = try BaselineCheck(baseline: folder, comparison: GatedComparison())
    let onBaseline = #expect(throws: CommandFailure.self) {
      try check.checkOutputs(runDirectory: folder, scenarioFile: "candidate.yaml", ci: CIReporting())
    }
    #expect(onBaseline?.message.contains("the run's replications.csv") == true)
    #expect(onBaseline?.message.contains("is the baseline, which this command reads") == true)
    let root = #expect(throws: CommandFailure.self) {
      try check.checkOutputs(runDirectory: "/", scenarioFile: "candidate.yaml", ci: CIReporting())
    }
    #expect(root?.status == 2)
    try check.checkOutputs(
      runDirectory: TestFiles.temporaryDirectory(), scenarioFile: "candidate.yaml", ci: CIReporting())
  }

  @Test("check: the run compared with the stored baseline into its folder, compare.csv replaced")
  func baselineCompare() throws {
    let folder = try Self.candidateFolder()
    try AtomicFile.write("old", to: "\(folder)/compare.csv")
    let check = try BaselineCheck(baseline: Self.storedBaseline, comparison: GatedComparison())
    let failed = #expect(throws: CommandFailure.self) {
      try check.compare(runIn: folder, ci: CIReporting(), title: "widgetsim check", console: Self.quiet)
    }
    #expect(failed == CommandFailure(status: 1))
    #expect(try TestFiles.read("\(folder)/compare.csv").hasPrefix("metric,widget,"))
  }
}
