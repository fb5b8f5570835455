import CommandSupport
import Reports

/// One `widgetsim bench`: load what the chosen benchmarks need, run the suite, write and print the figures,
/// and gate them against a stored baseline.
public struct BenchmarkSession: Sendable {
  /// How the figures are printed.
  public enum Format: String, Sendable, CaseIterable {
    /// `benchmark,parameter,value,unit` (medians).
    case csv
    /// An aligned table with min, median and max.
    case table
  }

  public var suite: BenchmarkSuite
  /// The benchmarks to run; nil for all of them.
  public var only: Set<String>?
  /// The folder of the scenario benchmarks' files.
  public var scenarios: String
  /// A bench CSV to compare with, if any.
  public var baseline: String?
  public var tolerance: BenchmarkTolerance
  public var statistic: BenchmarkStatistic
  /// Also write the CSV to this file (atomically).
  public var out: String?
  public var format: Format
  /// Where to write the rates (bigger is better) and the times per item (smaller is better) as
  /// github-action-benchmark lists (see ``BenchmarkJSON``).
  public var json: String?
  public var jsonSmaller: String?

  public init(
    suite: BenchmarkSuite, only: Set<String>? = nil, scenarios: String = BenchmarkScenarios.defaultDirectory,
    baseline: String? = nil, tolerance: BenchmarkTolerance = BenchmarkTolerance(fraction: 0.1),
    statistic: BenchmarkStatistic = .median, out: String? = nil, format: Format = .table, json: String? = nil,
    jsonSmaller: String? = nil
  ) {
    self.json = json
    self.jsonSmaller = jsonSmaller
    self.suite = suite
    self.only = only
    self.scenarios = scenarios
    self.baseline = baseline
    self.tolerance = tolerance
    self.statistic = statistic
    self.out = out
    self.format = format
  }

  /// What a debug build says first: its figures are not meaningful.
  public static let debugBuildWarning =
    "warning: this is a debug build; its figures are not meaningful. Use `swift run -c release widgetsim bench`.\n"

  /// Runs the suite and prints its figures (with a baseline, the verdicts: on standard output for a table,
  /// on standard error beside the CSV). Fails with exit 2 on unreadable scenarios, baseline or --out, and
  /// with exit 1 (no message: the verdicts said it) on a regression.
  public func run(console: Console) throws(CommandFailure) {
    let outputs = [("--out", out), ("--json", json), ("--json-smaller", jsonSmaller)].compactMap { option, path in
      path.map { (what: option, path: $0) }
    }
    try OutputPaths.check(outputs: outputs, inputs: baseline.map { [("--baseline", $0)] } ?? [])
    var loadedScenarios: BenchmarkScenarios?
    if !(only ?? Set(BenchmarkSuite.names)).isDisjoint(with: BenchmarkSuite.scenarioNames) {
      loadedScenarios = try CommandFailure.mapping(status: 2) { try BenchmarkScenarios.load(directory: scenarios) }
    }
    // Read the baseline before measuring, so a bad file fails in a moment, not after the suite.
    var stored: [BenchmarkBaselineRow]?
    if let baseline {
      stored = try CommandFailure.mapping(status: 2, prefix: "--baseline ") {
        try BenchmarkBaseline.load(path: baseline)
      }
    }
    let results = suite.run(only: only, scenarios: loadedScenarios)
    if let out {
      try CommandFailure.mapping(status: 2, prefix: "--out ") {
        try AtomicFile.write(BenchmarkTable.csv(results), to: out)
      }
    }
    try writeJSON(results, console: console)
    guard let stored else {
      switch format {
      case .csv: console.output(BenchmarkTable.csv(results))
      case .table: console.output(BenchmarkTable.text(results))
      }
      return
    }
    let comparison = BenchmarkComparison(
      results: results, baseline: stored, tolerance: tolerance, statistic: statistic)
    switch format {
    case .csv:
      // Standard output stays machine-readable; the verdicts go to standard error.
      console.output(BenchmarkTable.csv(results))
      console.error(comparison.text())
    case .table: console.output(comparison.text())
    }
    if comparison.hasRegression { throw CommandFailure(status: comparison.exitStatus) }
  }

  /// Writes `--json` and `--json-smaller`, and says which measured figures neither file holds.
  func writeJSON(_ results: [BenchmarkResult], console: Console) throws(CommandFailure) {
    guard json != nil || jsonSmaller != nil else { return }
    let files: [(String?, BenchmarkDirection, String, String)] = [
      (json, .higherIsBetter, "--json", "rates (bigger is better)"),
      (jsonSmaller, .lowerIsBetter, "--json-smaller", "times per item (smaller is better)"),
    ]
    for (path, direction, option, what) in files {
      let count = BenchmarkJSON.count(results, direction: direction)
      guard let path else {
        if count > 0 { console.error("note: \(count) \(what) are in neither JSON file; \(option) FILE writes them\n") }
        continue
      }
      try CommandFailure.mapping(status: 2, prefix: "\(option) ") {
        try AtomicFile.write(BenchmarkJSON.json(results, direction: direction), to: path)
      }
    }
  }
}

extension BenchmarkSession {
  /// What is wrong with `widgetsim bench`'s options, or nil: `outputs` are (option, kind of file, path).
  public static func problem(
    repetitions: Int?, outputs: [(option: String, kind: String, path: String?)], only: [String], tolerance: String
  ) -> String? {
    if let repetitions, repetitions < 1 { return "--repetitions must be at least 1, got \(repetitions)" }
    for output in outputs {
      if let path = output.path, path.isEmpty || path.hasSuffix("/") {
        return "\(output.option) names the \(output.kind) file to write, got '\(path)'"
      }
    }
    for name in only where !BenchmarkSuite.names.contains(name) {
      return "--only \(name): no such benchmark; expected one of \(BenchmarkSuite.names.joined(separator: ", "))"
    }
    do {
      _ = try BenchmarkTolerance(parsing: tolerance)
    } catch {
      return error.message
    }
    return nil
  }
}
