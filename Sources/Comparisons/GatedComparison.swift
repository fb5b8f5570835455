import CommandSupport
import Reports

/// Comparing a candidate run with a baseline as a command does: write compare.csv, print the verdicts, fail
/// on a gate. `widgetsim compare`, and the comparison half of `widgetsim check`.
public struct GatedComparison: Sendable {
  public var gates: [Gate]
  /// Significance level of the gates' one-sided tests.
  public var alpha: Double
  public var correction: MultipleTestCorrection
  /// Print every metric, not only the gated and significantly changed ones.
  public var all: Bool

  public init(
    gates: [Gate] = Gate.defaults, alpha: Double = 0.05, correction: MultipleTestCorrection = .holm, all: Bool = false
  ) {
    self.gates = gates
    self.alpha = alpha
    self.correction = correction
    self.all = all
  }

  /// The comparison `--gate` (`gates`), `--no-gates`, `--alpha`, `--correction` and `--all` ask for; gates
  /// that do not parse, which ``problem(alpha:gates:noGates:junit:)`` refuses first, are left out.
  public init(parsing gates: [String], noGates: Bool, alpha: Double, correction: MultipleTestCorrection, all: Bool) {
    let parsed = (try? GatedComparison.gates(gates, noGates: noGates)) ?? []
    self.init(gates: parsed, alpha: alpha, correction: correction, all: all)
  }

  /// What is wrong with the gate options, or nil: `--alpha` in (0, 1), `--no-gates` without `--gate`, each
  /// `--gate` readable, `--junit` naming a file.
  public static func problem(alpha: Double, gates arguments: [String], noGates: Bool, junit: String?) -> String? {
    guard alpha > 0 && alpha < 1 else { return "--alpha must be in (0, 1), got \(alpha)" }
    if noGates && !arguments.isEmpty { return "--no-gates and --gate exclude each other" }
    // The gate's own message names it ("gate 'x': ..."): the option's name goes in front, not a second time.
    do { _ = try gates(arguments, noGates: noGates) } catch { return "--\(error)" }
    if let junit, junit.isEmpty || junit.hasSuffix("/") { return "--junit names the XML file to write, got '\(junit)'" }
    return nil
  }

  /// The gates `--gate` arguments ask for: none with `noGates`, ``Gate/defaults`` when there are none.
  public static func gates(_ arguments: [String], noGates: Bool) throws(ComparisonError) -> [Gate] {
    if noGates { return [] }
    if arguments.isEmpty { return Gate.defaults }
    var gates: [Gate] = []
    for argument in arguments { gates.append(try Gate(parsing: argument)) }
    return gates
  }

  /// Reads a run folder or a replications file; fails with exit 2.
  public static func table(_ path: String) throws(CommandFailure) -> ReplicationTable {
    do {
      return try ReplicationTable.load(path)
    } catch {
      throw .badInput("\(error)")
    }
  }

  /// Refuses (exit 2) a gate that matches nothing in `baseline`, before a run that would end in that error.
  public func checkGates(against baseline: ReplicationTable) throws(CommandFailure) {
    do {
      try Comparison.checkGates(gates, against: baseline)
    } catch {
      throw .badInput("\(error)")
    }
  }

  /// Compares, writes `compare.csv` into `directory` (refusing to replace one unless `replacing`) and prints
  /// the summary on `console`; fails with exit 1 when a gate fails (or compare.csv cannot be written) and 2
  /// on bad input.
  /// `ci` adds a CI system's outputs (step summary, annotations, JUnit XML); `title` names the comparison in them.
  public func compare(
    baseline: ReplicationTable, candidate: ReplicationTable, writingInto directory: String, replacing: Bool,
    console: Console, ci: CIReporting = CIReporting(), title: String = "widgetsim compare"
  ) throws(CommandFailure) {
    if let problem = OutputFolder.problem(directory) { throw .badInput(problem) }
    let comparison: Comparison
    do {
      comparison = try Comparison(
        baseline: baseline, candidate: candidate, gates: gates, alpha: alpha, correction: correction)
    } catch {
      throw .badInput("\(error)")
    }
    // Checked under the folder's lock: no other command can write compare.csv there in between.
    let lock = try OutputFolder.prepare(directory)
    defer { withExtendedLifetime(lock) {} }
    let found = ExistingReports.find(["compare.csv"], in: directory)
    if !replacing && !found.isEmpty { throw .badInput(ExistingReports.refusal(found, in: directory)) }
    do {
      try AtomicFile.write(ComparisonReport.csv(comparison), to: "\(directory)/compare.csv")
    } catch {
      throw .failed("\(error)")
    }
    console.output(ComparisonReport.text(comparison, all: all))
    for annotation in ci.annotations(comparison) { console.print(annotation) }
    console.print("compare.csv: \(directory)/compare.csv")
    if let junit = ci.junit { console.print("junit: \(junit)") }
    console.print(ComparisonReport.verdict(comparison))
    // After the verdict is printed, and out of the buffer: a CI file that cannot be written (or a FIFO that
    // keeps it waiting) fails the command (exit 1) with its own message, and the log still shows the gates.
    console.flush()
    try ci.write(comparison, title: title)
    if !comparison.failures.isEmpty { throw CommandFailure(status: 1) }
  }
}
