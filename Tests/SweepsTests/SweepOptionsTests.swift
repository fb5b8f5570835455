import CommandSupport
import Reports
import ScenarioFiles
import TestSupport
import Testing

@testable import Sweeps

/// `widgetsim sweep` as its options ask for it, without the command line.
@Suite("A sweep from the command's options")
struct SweepOptionsTests {
  static let file = Repository.path("Scenarios/sweep-refresh-interval.yaml")

  @Test("problem: --jobs at least 1, --shard K/N")
  func problems() {
    #expect(SweepExecution.problem(jobs: nil, shard: nil) == nil)
    #expect(SweepExecution.problem(jobs: 2, shard: "1/4") == nil)
    #expect(SweepExecution.problem(jobs: 0, shard: "x") == "--jobs must be at least 1, got 0")
    #expect(SweepExecution.problem(jobs: 1, shard: "4/4") == "--shard expects K/N with 0 <= K < N, e.g. 0/4; got 4/4")
  }

  @Test("the sweep loaded with the overrides, which the manifest records; the shard read; a bad file is exit 2")
  func execution() throws {
    let execution = try SweepExecution(
      file: Self.file, scenario: ScenarioArguments(replications: 2, days: 1), commonRandomNumbers: true,
      directory: nil, jobs: 2, baselinePoint: 1, shard: "1/3", quiet: true, force: false)
    #expect(execution.overrides == ["replications=2", "days=1"])
    #expect(execution.sweep.configurations.allSatisfy { $0.days == 1 && $0.replications == 2 })
    #expect(execution.shard == SweepShard("1/3") && execution.jobs == 2 && execution.baselinePoint == 1)
    let missing = #expect(throws: CommandFailure.self) {
      try SweepExecution(
        file: "/no/such/sweep.yaml", scenario: ScenarioArguments(), commonRandomNumbers: true, directory: nil,
        jobs: nil, baselinePoint: nil, shard: nil, quiet: true, force: false)
    }
    #expect(missing?.status == 2 && missing?.message.hasPrefix("error: ") == true)
  }
}
