import Reports

/// What `widgetsim compare` and `check` print and write: `compare.csv` with every metric, and a short
/// text with the gated metrics, the other significant changes and the verdict.
public enum ComparisonReport {
  public static let header =
    "metric,widget,unit,baseline_mean,candidate_mean,difference,relative_difference,ci95_low,ci95_high,"
    + "test,degrees_of_freedom,p_value,gate,gate_p_value,verdict\n"

  public static func csv(_ comparison: Comparison) -> String {
    var text = header
    for row in comparison.rows {
      let test = row.test
      let interval = test?.interval()
      let cells = [
        CSVFormat.text(row.key.metric), CSVFormat.text(row.key.widget), CSVFormat.text(row.unit),
        number(test?.baselineMean), number(test?.candidateMean), number(test?.difference),
        number(test.map { relative($0) }), number(interval?.low), number(interval?.high),
        test?.method.rawValue ?? "", number(test?.degreesOfFreedom), number(test?.pValue), row.gate?.description ?? "",
        number(row.gatePValue), row.verdict.rawValue,
      ]
      text += cells.joined(separator: ",") + "\n"
    }
    return text
  }

  /// The change relative to the baseline mean (NaN when the baseline mean is 0).
  static func relative(_ test: DifferenceTest) -> Double {
    test.baselineMean != 0 ? test.difference / abs(test.baselineMean) : .nan
  }

  static func number(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "" }
    return "\(value)"
  }

  /// The readable summary; `all` lists every metric instead of the gated and significantly changed ones.
  /// It ends before the verdict: ``verdict(_:)`` is the line a command prints last.
  public static func text(_ comparison: Comparison, all: Bool = false) -> String {
    var lines: [String] = []
    lines.append("baseline:  \(describe(comparison.baseline))")
    lines.append("candidate: \(describe(comparison.candidate))")
    lines.append(
      comparison.paired
        ? "tests: paired by replication (same seed: common random numbers)"
        : "tests: Welch (different seeds or replications: independent samples)")
    for warning in comparison.warnings { lines.append("warning: \(warning)") }
    let gated = comparison.gated
    let changed = comparison.ungatedChanges
    let shown = all ? comparison.rows : gated
    if !shown.isEmpty {
      lines.append("")
      var header = ["metric", "widget", "baseline", "candidate", "change", "95% CI of difference", "gate", "gate p"]
      if all { header.append("change p") }
      var table = [header + ["verdict"]]
      for row in shown {
        var cells = [row.key.metric, row.key.widget] + figures(row)
        cells += [row.gate?.description ?? "", row.gatePValue.map(probability) ?? ""]
        if all { cells.append(row.test.map { probability($0.pValue) } ?? "-") }
        cells.append(row.verdict == .fail ? "FAIL" : (row.verdict == .pass ? "pass" : ""))
        table.append(cells)
      }
      lines += aligned(table)
      if !gated.isEmpty { lines.append(legend(comparison)) }
    }
    if !all {
      let ungated = comparison.rows.count - gated.count
      lines.append("")
      lines.append(
        "\(changed.count) of \(ungated) ungated metrics changed significantly (two-sided p < \(comparison.alpha)); --all lists them, compare.csv has every metric"
      )
    }
    if !comparison.onlyInBaseline.isEmpty || !comparison.onlyInCandidate.isEmpty {
      lines.append(
        "not compared: \(comparison.onlyInBaseline.count) metrics only in the baseline, \(comparison.onlyInCandidate.count) only in the candidate"
      )
    }
    for row in comparison.failures { lines.append("failed gate: \(failureText(row))") }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A row's figures as the tables show them: the baseline and candidate means (followed by the unit with
  /// `units`), the change relative to the baseline, and the 95% CI of the difference; dashes for a row
  /// that could not be tested.
  static func figures(_ row: Comparison.Row, units: Bool = false) -> [String] {
    guard let test = row.test else { return ["-", "-", "-", "-"] }
    let interval = test.interval()
    let unit = units ? " \(row.unit)" : ""
    return [
      short(test.baselineMean) + unit, short(test.candidateMean) + unit, percent(relative(test)),
      "[\(short(interval.low)), \(short(interval.high))]",
    ]
  }

  /// What `gate p` means, under the table.
  static func legend(_ comparison: Comparison) -> String {
    let count = comparison.gated.count
    let adjusted =
      comparison.correction == .holm && count > 1 ? ", Holm-adjusted over the \(count) gated metrics" : ""
    return "gate p: one-sided test that the candidate is worse beyond the gate's tolerance\(adjusted); "
      + "FAIL when gate p <= \(comparison.alpha)"
  }

  /// One failed gate: the change, the gate and its p-value, as the table gives them.
  public static func failureText(_ row: Comparison.Row) -> String {
    guard let test = row.test, let gate = row.gate, let p = row.gatePValue else { return row.key.metric }
    let pText = p < 0.0001 ? "gate p < 0.0001" : "gate p = \(probability(p))"
    return "\(row.key.metric) (\(row.key.widget)): \(short(test.baselineMean)) -> \(short(test.candidateMean)) "
      + "\(row.unit) (\(percent(relative(test)))), gate \(gate), \(pText)"
  }

  /// The one-line verdict a command prints last.
  public static func verdict(_ comparison: Comparison) -> String {
    let gated = comparison.gated.count
    let failures = comparison.failures.count
    let level = "alpha \(comparison.alpha)\(correctionText(comparison))"
    if gated == 0 { return "OK: no gates (differences reported only)" }
    if failures == 0 {
      return
        "OK: none of \(gated) gated metrics is significantly worse than the baseline beyond its tolerance (\(level))"
    }
    return
      "FAIL: \(failures) of \(gated) gated metrics significantly worse than the baseline beyond tolerance (\(level))"
  }

  static func correctionText(_ comparison: Comparison) -> String {
    comparison.correction == .holm && comparison.gated.count > 1 ? ", Holm-corrected" : ""
  }

  static func describe(_ table: ReplicationTable) -> String {
    let replications = table.replicationCount
    let seeds = table.seeds.sorted().map(String.init).joined(separator: ", ")
    return "\(table.path) (\(replications) replications, seed \(seeds))"
  }

  /// Four significant digits, without exponent for everyday magnitudes.
  static func short(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    let magnitude = abs(value)
    let decimals = magnitude >= 1000 ? 0 : magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : magnitude >= 1 ? 3 : 4
    return CSVFormat.number(value, decimals: decimals)
  }

  static func percent(_ fraction: Double) -> String {
    guard fraction.isFinite else { return "-" }
    let text = CSVFormat.number(fraction * 100, decimals: 1)
    return (fraction > 0 ? "+" : "") + text + "%"
  }

  static func probability(_ p: Double) -> String {
    p < 0.0001 ? "<0.0001" : CSVFormat.number(p, decimals: 4)
  }

  static func aligned(_ table: [[String]]) -> [String] {
    var widths = [Int](repeating: 0, count: table[0].count)
    for row in table { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
    return table.map { row in
      row.enumerated().map { index, cell in
        index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
      }.joined(separator: "  ").trimmingSuffixSpaces
    }
  }
}

extension String {
  fileprivate var trimmingSuffixSpaces: String {
    var text = self
    while text.hasSuffix(" ") { text.removeLast() }
    return text
  }
}
