import ArgumentParser
import Comparisons

/// Options of the commands that compare runs: which metrics gate, how much worse they may get, and the
/// significance level.
struct GateOptions: ParsableArguments {
  @Option(
    name: .customLong("gate"),
    help: ArgumentHelp(
      "A regression gate, METRIC[@WIDGET]:+TOL (a rise is worse) or :-TOL (a fall is worse); TOL relative with %, "
        + "else in the metric's unit. Repeatable. Default: "
        + Gate.defaults.map(\.description).joined(separator: " ") + ".", valueName: "gate"))
  var gates: [String] = []

  @Flag(help: "Compare without gating: report differences, never fail.")
  var noGates = false

  @Option(help: "Significance level of the gates' one-sided tests.")
  var alpha = 0.05

  @Option(
    help: ArgumentHelp(
      "Correction for testing several gated metrics: holm (the default: at most --alpha chance that any gate "
        + "fails on unchanged code) or none (each at --alpha).", valueName: "holm|none"))
  var correction: MultipleTestCorrection = .holm

  @Flag(help: "Print every metric, not only the gated and significantly changed ones.")
  var all = false

  @Option(help: ArgumentHelp("Also write the gates as JUnit XML (one testcase per gated metric).", valueName: "file"))
  var junit: String?

  func validate() throws {
    try refuse(GatedComparison.problem(alpha: alpha, gates: gates, noGates: noGates, junit: junit))
  }

  /// The comparison these options ask for (the gates were checked in `validate()`).
  var comparison: GatedComparison {
    GatedComparison(parsing: gates, noGates: noGates, alpha: alpha, correction: correction, all: all)
  }
}

extension MultipleTestCorrection: ExpressibleByArgument {}
