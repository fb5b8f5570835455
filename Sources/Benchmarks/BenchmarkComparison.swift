/// This run's figures against a stored baseline: a verdict per row present in both, and the rows present
/// in only one of them (a note, never a failure: suites grow and machines differ).
public struct BenchmarkComparison: Sendable {
  /// What became of one row.
  public enum Verdict: Sendable, Equatable {
    /// Within the tolerance of the baseline.
    case ok
    /// Worse than the baseline by more than the tolerance.
    case regression
    /// Better than the baseline by more than the tolerance.
    case improved
    /// Not comparable (units differ, or the unit names no direction); reported, never a failure.
    case incomparable(String)

    public var text: String {
      switch self {
      case .ok: "ok"
      case .regression: "REGRESSION"
      case .improved: "improved"
      case .incomparable(let reason): "not compared: \(reason)"
      }
    }
  }

  /// One row present in both the run and the baseline.
  public struct Row: Sendable {
    public let result: BenchmarkResult
    public let baseline: BenchmarkBaselineRow
    /// (figure - baseline) / baseline, the figure being the compared statistic (the median unless asked
    /// otherwise): positive when it went up, whatever its direction.
    public let change: Double
    public let verdict: Verdict
  }

  public let tolerance: BenchmarkTolerance
  public let statistic: BenchmarkStatistic
  public let rows: [Row]
  /// `benchmark parameter` of rows run now but absent from the baseline.
  public let missingFromBaseline: [String]
  /// `benchmark parameter` (line) of baseline rows this run did not produce.
  public let missingFromRun: [String]

  /// Relative slack so a change of exactly the tolerance (e.g. 110 against 100 at 10%) is not a regression
  /// through rounding.
  static let epsilon = 1e-9

  /// Compares every result to the baseline row with the same benchmark and parameter.
  public init(
    results: [BenchmarkResult], baseline: [BenchmarkBaselineRow], tolerance: BenchmarkTolerance,
    statistic: BenchmarkStatistic = .median
  ) {
    self.tolerance = tolerance
    self.statistic = statistic
    var stored: [String: BenchmarkBaselineRow] = [:]
    for row in baseline { stored["\(row.benchmark)\u{1F}\(row.parameter)"] = row }
    var rows: [Row] = []
    var missingFromBaseline: [String] = []
    var matched: Set<String> = []
    for result in results {
      let key = "\(result.benchmark)\u{1F}\(result.parameter)"
      guard let reference = stored[key] else {
        missingFromBaseline.append("\(result.benchmark) \(result.parameter)")
        continue
      }
      matched.insert(key)
      let figure = statistic.figure(of: result, direction: BenchmarkDirection(unit: result.unit))
      let change = (figure - reference.value) / reference.value
      rows.append(
        Row(
          result: result, baseline: reference, change: change,
          verdict: Self.verdict(
            change: change, unit: result.unit, baselineUnit: reference.unit, tolerance: tolerance)))
    }
    self.rows = rows
    self.missingFromBaseline = missingFromBaseline
    missingFromRun = baseline.filter { !matched.contains("\($0.benchmark)\u{1F}\($0.parameter)") }.map {
      "\($0.benchmark) \($0.parameter) (line \($0.line))"
    }
  }

  /// The verdict for a relative `change` of a figure in `unit`.
  public static func verdict(
    change: Double, unit: String, baselineUnit: String, tolerance: BenchmarkTolerance
  ) -> Verdict {
    guard unit == baselineUnit else { return .incomparable("unit \(baselineUnit) in baseline, \(unit) now") }
    guard let direction = BenchmarkDirection(unit: unit) else {
      return .incomparable("unit \(unit) has no direction")
    }
    let worse = direction == .lowerIsBetter ? change : -change
    if worse > tolerance.fraction + epsilon { return .regression }
    if -worse > tolerance.fraction + epsilon { return .improved }
    return .ok
  }

  /// Whether any row regressed.
  public var hasRegression: Bool { rows.contains { $0.verdict == .regression } }

  /// The process exit status the gate reports: 1 on any regression, else 0.
  public var exitStatus: Int32 { hasRegression ? 1 : 0 }

  /// An aligned table (baseline, min / median / max of this run, change, verdict) and notes on rows
  /// present on one side only.
  public func text() -> String {
    let header = ["benchmark", "parameter", "unit", "baseline", "min", "median", "max", "change", "verdict"]
    let body = rows.map { row -> [String] in
      let change = row.change * 100
      return [
        row.result.benchmark, row.result.parameter, row.result.unit, BenchmarkTable.format(row.baseline.value),
        BenchmarkTable.format(row.result.minimum), BenchmarkTable.format(row.result.median),
        BenchmarkTable.format(row.result.maximum), (change >= 0 ? "+" : "") + BenchmarkTable.format(change) + "%",
        row.verdict.text,
      ]
    }
    let table = [header] + body
    let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
    var text =
      table.map { cells in
        cells.indices.map { column in
          let cell = cells[column]
          let padding = String(repeating: " ", count: widths[column] - cell.count)
          if column == cells.count - 1 { return cell }
          return column >= 3 && column <= 7 ? padding + cell : cell + padding
        }.joined(separator: "  ")
      }.joined(separator: "\n") + "\n"
    let regressions = rows.filter { $0.verdict == .regression }.count
    text +=
      "\(rows.count) compared (\(statistic.rawValue) of this run against the baseline's median) at tolerance \(tolerance.percentText): \(regressions) regression"
      + (regressions == 1 ? "" : "s") + "\n"
    if !missingFromBaseline.isEmpty {
      text += "note: not in the baseline (not compared): \(missingFromBaseline.joined(separator: ", "))\n"
    }
    if !missingFromRun.isEmpty {
      text += "note: in the baseline but not run: \(missingFromRun.joined(separator: ", "))\n"
    }
    return text
  }
}
