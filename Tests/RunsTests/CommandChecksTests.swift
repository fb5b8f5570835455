import CommandSupport
import Comparisons
import FieldLogs
import ScenarioFiles
import Sweeps
import TestSupport
import Testing

@testable import Runs

/// The checks the command line hands its options to before anything runs, each in the command line's words.
@Suite("Command checks")
struct CommandChecksTests {
  @Test("merge: at least one folder; --baseline-point refused for fleet shards only")
  func merge() throws {
    #expect(FolderMerge.problem(folders: []) == "give at least one shard folder")
    let sweepFolder = TestFiles.temporaryDirectory()
    #expect(FolderMerge.problem(folders: [sweepFolder]) == nil)
    #expect(FolderMerge.problem(folders: [sweepFolder], baselinePoint: 1) == nil)
    let shard = TestFiles.temporaryDirectory()
    try TestFiles.write("", to: "\(shard)/\(ShardFolder.description)")
    #expect(FolderMerge.problem(folders: [shard], baselinePoint: nil) == nil)
    #expect(
      FolderMerge.problem(folders: [shard], baselinePoint: 1)
        == "--baseline-point applies to sweeps; these are fleet shards")
  }

  @Test("validate: at least one file")
  func validate() {
    #expect(ScenarioValidation.problem(files: []) == "give at least one scenario file")
    #expect(ScenarioValidation.problem(files: ["a.yaml"]) == nil)
  }

  @Test("sweep: --users needs --report and a positive count, before --jobs and --shard")
  func sweep() throws {
    #expect(SweepExecution.problem(jobs: nil, shard: nil, report: false, users: nil) == nil)
    #expect(SweepExecution.problem(jobs: 2, shard: "1/4", report: true, users: 1000) == nil)
    let users = try #require(SweepExecution.problem(jobs: 0, shard: nil, report: false, users: 1000))
    #expect(users.hasPrefix("--users sets report.html's server chart"), "\(users)")
    #expect(SweepExecution.problem(jobs: 0, shard: nil, report: true, users: -1)?.hasPrefix("--users takes") == true)
    #expect(
      SweepExecution.problem(jobs: 0, shard: nil, report: false, users: nil)
        == SweepExecution.problem(jobs: 0, shard: nil))
    #expect(SweepExecution.problem(jobs: 1, shard: "4/4", report: false, users: nil)?.hasPrefix("--shard") == true)
  }

  @Test("check: the observed check's problems, from the request's and the logs' options")
  func check() {
    func check(baseline: String?, logs: [String], report: Bool = false, jobs: Int? = nil) -> ScenarioCheck {
      ScenarioCheck(
        request: RunRequest(file: "s.yaml", jobs: jobs, report: report, version: "test"), file: "s.yaml",
        baseline: baseline, observed: .init(logs: logs, serverLogs: [], floors: [], checkDevices: nil),
        comparison: GatedComparison())
    }
    let cases: [(ScenarioCheck, Bool, Bool, Bool, Int?)] = [
      (check(baseline: "b.csv", logs: []), true, false, false, nil),
      (check(baseline: nil, logs: ["a.jsonl"]), false, true, false, nil),
      (check(baseline: "b.csv", logs: ["a.jsonl"]), true, true, false, nil),
      (check(baseline: nil, logs: ["a.jsonl"], report: true), false, true, true, nil),
      (check(baseline: "b.csv", logs: [], jobs: 0), true, false, false, 0),
    ]
    for (scenarioCheck, baseline, observed, report, jobs) in cases {
      let expected = ObservedCheck.problem(
        jobs: jobs, baseline: baseline, observed: observed, report: report, floors: [], checkDevices: nil)
      #expect(scenarioCheck.problem() == expected)
    }
    #expect(check(baseline: "b.csv", logs: []).problem() == nil)
    #expect(check(baseline: "b.csv", logs: ["a.jsonl"]).problem() != nil)
  }

  @Test("gate options: the gates as parsed, none with --no-gates, the defaults without --gate")
  func gates() throws {
    let parsed = GatedComparison(
      parsing: ["joules_per_day:+5%"], noGates: false, alpha: 0.1, correction: .none, all: true)
    #expect(parsed.gates.map(\.description) == [try Gate(parsing: "joules_per_day:+5%").description])
    #expect(parsed.alpha == 0.1 && parsed.correction == MultipleTestCorrection.none && parsed.all)
    let none = GatedComparison(parsing: [], noGates: true, alpha: 0.05, correction: .holm, all: false)
    #expect(none.gates.isEmpty)
    let defaults = GatedComparison(parsing: [], noGates: false, alpha: 0.05, correction: .holm, all: false)
    #expect(defaults.gates.map(\.description) == Gate.defaults.map(\.description))
  }
}
