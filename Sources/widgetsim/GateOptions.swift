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
      "Correction for testing several gates: none (each at --alpha) or holm (at most --alpha chance that any "
        + "gate fails on unchanged code).", valueName: "none|holm"))
  var correction: MultipleTestCorrection = .none

  @Flag(help: "Print every metric, not only the gated and significantly changed ones.")
  var all = false

  func validate() throws {
    guard alpha > 0 && alpha < 1 else { throw ValidationError("--alpha must be in (0, 1), got \(alpha)") }
    if noGates && !gates.isEmpty { throw ValidationError("--no-gates and --gate exclude each other") }
    do { _ = try GatedComparison.gates(gates, noGates: noGates) } catch { throw ValidationError("--gate \(error)") }
  }

  /// The comparison these options ask for (the gates were checked in `validate()`).
  var comparison: GatedComparison {
    GatedComparison(
      gates: (try? GatedComparison.gates(gates, noGates: noGates)) ?? [], alpha: alpha, correction: correction,
      all: all)
  }
}

extension MultipleTestCorrection: ExpressibleByArgument {}
