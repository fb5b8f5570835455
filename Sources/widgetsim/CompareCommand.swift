import ArgumentParser
import CommandSupport
import Comparisons
import Runs

/// `widgetsim compare`: two runs' metrics, their differences and the regression gates.
struct CompareCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare",
    abstract: "Compare a candidate run with a baseline: differences, 95% CIs, t-tests and regression gates.",
    discussion: """
      BASELINE and CANDIDATE are run folders or replications.csv files. Tests are paired by replication under a
      shared seed (common random numbers), else Welch; a gated metric fails when significantly worse (one-sided,
      Holm-corrected) by more than its tolerance. Writes compare.csv, --junit XML, and under GitHub Actions a
      step summary and annotations. Exit codes: 0 no gate failed, 1 a gate failed, 2 bad input.
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
    ).runForCommand(junit: gates.junit, console: .standard)
  }
}
