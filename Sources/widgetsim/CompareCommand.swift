import ArgumentParser
import Comparisons
import Reports
import ScenarioFiles

/// `widgetsim compare`: two runs' metrics, their differences and the regression gates.
struct CompareCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare",
    abstract: "Compare a candidate run with a baseline: differences, 95% CIs, t-tests and regression gates.",
    discussion: """
      BASELINE and CANDIDATE are run folders (holding replications.csv) or replications.csv files (a stored
      baseline). Tests are paired by replication when both runs used the same seed (common random numbers),
      otherwise Welch. A gated metric fails when it is significantly worse (one-sided t-test at --alpha) by
      more than its tolerance (Holm-corrected over the gated metrics by default). Writes compare.csv; --junit
      also writes the gates as JUnit XML; under GitHub Actions a Markdown summary goes to $GITHUB_STEP_SUMMARY
      and failed gates are annotated on the candidate's scenario. Exit codes: 0 no gate failed, 1 a gate failed, 2 bad input
      (unreadable or mismatched runs, unknown metrics).
      """
  )

  @Argument(help: "The baseline: a run folder or a replications.csv file.")
  var baseline: String

  @Argument(help: "The candidate: a run folder or a replications.csv file.")
  var candidate: String

  @OptionGroup var gates: GateOptions

  @Option(help: "Folder for compare.csv (default: the candidate's folder, or the current folder for a file).")
  var out: String?

  @Flag(help: "Replace an existing compare.csv (otherwise widgetsim refuses).")
  var force = false

  func run() throws {
    try RunComparison(
      baseline: baseline, candidate: candidate, out: out, replacing: force, comparison: gates.comparison
    ).run(scenarioLimit: ScenarioLoader.maximumFileBytes, console: .standard, ci: gates.ci)
  }
}
