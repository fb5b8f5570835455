import CommandSupport
import Reports
import ScenarioFiles

extension SweepExecution {
  /// What is wrong with `widgetsim sweep`'s `--jobs` and `--shard`, or nil.
  public static func problem(jobs: Int?, shard: String?) -> String? {
    if let jobs, jobs < 1 { return "--jobs must be at least 1, got \(jobs)" }
    if let shard, SweepShard(shard) == nil {
      return "--shard expects K/N with 0 <= K < N, e.g. 0/4; got \(shard)"
    }
    return nil
  }

  /// `widgetsim sweep FILE` as its options ask for it: the sweep `file` loaded with `scenario`'s overrides
  /// (which the manifest records; fails with exit 2), `shard` as given (``problem(jobs:shard:)`` checked it).
  public init(
    file: String, scenario: ScenarioArguments, commonRandomNumbers: Bool, directory: String?, jobs: Int?,
    baselinePoint: Int?, shard: String?, quiet: Bool, force: Bool
  ) throws(CommandFailure) {
    self.init(
      try CommandFailure.mapping(status: 2) { try scenario.loadSweep(file) }, overrides: scenario.recorded,
      commonRandomNumbers: commonRandomNumbers, directory: directory, jobs: jobs, baselinePoint: baselinePoint,
      shard: shard.flatMap(SweepShard.init), quiet: quiet, force: force)
  }
}
