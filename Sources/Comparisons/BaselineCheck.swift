import CommandSupport
import Reports

/// The comparison half of `widgetsim check FILE --baseline CSV`: the stored baseline is read and the gates
/// checked against it before the run (a bad one fails at once, not after the run), the run's outputs are
/// checked against what the command reads, and after the run it is compared with the baseline into its
/// folder.
public struct BaselineCheck: Sendable {
  /// The baseline as given: a replications.csv file or a run folder.
  public let baseline: String
  public let comparison: GatedComparison
  /// The baseline's replications.
  public let stored: ReplicationTable

  /// Reads `baseline` and checks `comparison`'s gates against it; fails with exit 2 when either is bad.
  public init(baseline: String, comparison: GatedComparison) throws(CommandFailure) {
    self.baseline = baseline
    self.comparison = comparison
    stored = try GatedComparison.table(baseline)
    try comparison.checkGates(against: stored)
  }

  /// Refuses (exit 2) an output folder no command may write, and a report of the run or a CI output
  /// (`ci`'s) that would land on the scenario `scenarioFile` or on the baseline.
  public func checkOutputs(runDirectory directory: String, scenarioFile: String, ci: CIReporting)
    throws(CommandFailure)
  {
    if let problem = OutputFolder.problem(directory) { throw .badInput(problem) }
    let reports = ExistingReports.runFiles.map { ("the run's \($0)", "\(directory)/\($0)") }
    try OutputPaths.check(
      outputs: reports + ci.outputs,
      inputs: [("the scenario", scenarioFile), ("the baseline", OutputPaths.replications(baseline))])
  }

  /// Compares the run in `directory` with the baseline as ``GatedComparison/compare`` does, writing
  /// compare.csv into that folder (replacing one: the folder was checked before the run).
  public func compare(runIn directory: String, ci: CIReporting, title: String, console: Console)
    throws(CommandFailure)
  {
    try comparison.compare(
      baseline: stored, candidate: try GatedComparison.table(directory), writingInto: directory, replacing: true,
      console: console, ci: ci, title: title)
  }
}
