import CommandSupport
import Reports

/// `widgetsim bench` as its options ask for it: what can be wrong with them (``problem()``), then the
/// session they describe, run (``run(console:)``).
public struct BenchmarkRequest: Sendable {
  public var format: BenchmarkSession.Format
  /// Repetitions of every measurement; nil for the suite's own.
  public var repetitions: Int?
  /// The quick suite (``BenchmarkSuite/quick``) instead of the standard one.
  public var quick: Bool
  /// The benchmarks to run; empty for all of them.
  public var only: [String]
  /// The folder of the scenario benchmarks' files.
  public var scenarios: String
  /// A bench CSV to compare with, if any.
  public var baseline: String?
  /// As given: `10%` or `0.1` (``problem()`` checks it).
  public var tolerance: String
  public var statistic: BenchmarkStatistic
  public var out: String?
  public var json: String?
  public var jsonSmaller: String?

  public init(
    format: BenchmarkSession.Format = .table, repetitions: Int? = nil, quick: Bool = false, only: [String] = [],
    scenarios: String = BenchmarkScenarios.defaultDirectory, baseline: String? = nil, tolerance: String = "10%",
    statistic: BenchmarkStatistic = .median, out: String? = nil, json: String? = nil, jsonSmaller: String? = nil
  ) {
    (self.format, self.repetitions, self.quick, self.only) = (format, repetitions, quick, only)
    (self.scenarios, self.baseline, self.tolerance, self.statistic) = (scenarios, baseline, tolerance, statistic)
    (self.out, self.json, self.jsonSmaller) = (out, json, jsonSmaller)
  }

  /// The first thing wrong with the options, as the command line says it, or nil.
  public func problem() -> String? {
    BenchmarkSession.problem(
      repetitions: repetitions,
      outputs: [("--out", "CSV", out), ("--json", "JSON", json), ("--json-smaller", "JSON", jsonSmaller)],
      only: only, tolerance: tolerance)
  }

  /// The session: the quick or the standard suite with these repetitions, the benchmarks chosen, the
  /// tolerance read.
  public func session() throws(BenchmarkToleranceError) -> BenchmarkSession {
    var suite = quick ? BenchmarkSuite.quick : BenchmarkSuite.standard
    if let repetitions { suite.repetitions = repetitions }
    return BenchmarkSession(
      suite: suite, only: only.isEmpty ? nil : Set(only), scenarios: scenarios, baseline: baseline,
      tolerance: try BenchmarkTolerance(parsing: tolerance), statistic: statistic, out: out, format: format,
      json: json, jsonSmaller: jsonSmaller)
  }

  /// Runs the session (``BenchmarkSession/run(console:)``), after a warning on a debug build, whose figures
  /// mean nothing.
  public func run(console: Console) throws {
    if !BenchmarkSuite.isOptimizedBuild { console.error(BenchmarkSession.debugBuildWarning) }
    try session().run(console: console)
  }
}
