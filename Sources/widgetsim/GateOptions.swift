import ArgumentParser
import Comparisons
import Reports

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
    for gate in gates {
      do { _ = try Gate(parsing: gate) } catch { throw ValidationError("--gate \(error)") }
    }
  }

  var parsedGates: [Gate] {
    if noGates { return [] }
    if gates.isEmpty { return Gate.defaults }
    return gates.compactMap { try? Gate(parsing: $0) }
  }

  /// Reads a run folder or replications file; on error prints it and exits 2.
  static func table(_ path: String) throws -> ReplicationTable {
    do {
      return try ReplicationTable.load(path)
    } catch {
      Console.error("error: \(error)\n")
      throw ExitCode(2)
    }
  }

  /// Compares, writes `compare.csv` into `directory` (refusing to replace one unless `replacing`), prints
  /// the summary; exits 1 when a gate fails and 2 on bad input.
  func compare(
    baseline: ReplicationTable, candidate: ReplicationTable, writingInto directory: String, replacing: Bool
  ) throws {
    let found = ExistingReports.find(["compare.csv"], in: directory)
    if !replacing && !found.isEmpty {
      Console.error("error: " + ExistingReports.refusal(found, in: directory) + "\n")
      throw ExitCode(2)
    }
    let comparison: Comparison
    do {
      comparison = try Comparison(
        baseline: baseline, candidate: candidate, gates: parsedGates, alpha: alpha, correction: correction)
    } catch {
      Console.error("error: \(error)\n")
      throw ExitCode(2)
    }
    do {
      try AtomicFile.write(ComparisonReport.csv(comparison), to: "\(directory)/compare.csv")
    } catch {
      Console.error("error: \(error)\n")
      throw ExitCode(1)
    }
    print(ComparisonReport.text(comparison, all: all), terminator: "")
    print("compare.csv: \(directory)/compare.csv")
    if !comparison.failures.isEmpty { throw ExitCode(1) }
  }
}

extension MultipleTestCorrection: ExpressibleByArgument {}
