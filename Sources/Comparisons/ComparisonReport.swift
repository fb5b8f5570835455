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
  public static func text(_ comparison: Comparison, all: Bool = false) -> String {
    var lines: [String] = []
    lines.append("baseline:  \(describe(comparison.baseline))")
    lines.append("candidate: \(describe(comparison.candidate))")
    lines.append(
      comparison.paired
        ? "tests: paired by replication (same seed: common random numbers)"
        : "tests: Welch (different seeds or replications: independent samples)")
    let gated = comparison.rows.filter { $0.gate != nil }
    let changed = comparison.rows.filter {
      $0.gate == nil && ($0.test.map { $0.pValue < comparison.alpha } ?? false)
    }
    let shown = all ? comparison.rows : gated
    if !shown.isEmpty {
      lines.append("")
      var table = [
        ["metric", "widget", "baseline", "candidate", "change", "95% CI of difference", "p", "gate", "verdict"]
      ]
      for row in shown {
        guard let test = row.test else {
          table.append([row.key.metric, row.key.widget, "-", "-", "-", "-", "-", row.gate?.description ?? "", ""])
          continue
        }
        let interval = test.interval()
        table.append([
          row.key.metric, row.key.widget, short(test.baselineMean), short(test.candidateMean), percent(relative(test)),
          "[\(short(interval.low)), \(short(interval.high))]", probability(test.pValue),
          row.gate?.description ?? "", row.verdict == .fail ? "FAIL" : (row.verdict == .pass ? "pass" : ""),
        ])
      }
      lines += aligned(table)
    }
    if !all {
      let ungated = comparison.rows.count - gated.count
      lines.append("")
      lines.append(
        "\(changed.count) of \(ungated) ungated metrics changed significantly (p < \(comparison.alpha)); --all lists them, compare.csv has every metric"
      )
    }
    if !comparison.onlyInBaseline.isEmpty || !comparison.onlyInCandidate.isEmpty {
      lines.append(
        "not compared: \(comparison.onlyInBaseline.count) metrics only in the baseline, \(comparison.onlyInCandidate.count) only in the candidate"
      )
    }
    let failures = comparison.failures
    if failures.isEmpty {
      lines.append(
        "OK: no gated metric is significantly worse (alpha \(comparison.alpha)) beyond its tolerance (\(gated.count) gated)"
      )
    } else {
      lines.append(
        "FAIL: \(failures.count) of \(gated.count) gated metrics significantly worse (alpha \(comparison.alpha)\(correctionText(comparison))) beyond tolerance:"
      )
      for row in failures {
        guard let test = row.test, let gate = row.gate, let p = row.gatePValue else { continue }
        lines.append(
          "  \(row.key.metric) (\(row.key.widget)): \(short(test.baselineMean)) -> \(short(test.candidateMean)) \(row.unit) (\(percent(relative(test)))), gate \(gate), one-sided \(p < 0.0001 ? "p < 0.0001" : "p = \(probability(p))")"
        )
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func correctionText(_ comparison: Comparison) -> String {
    comparison.correction == .holm ? ", Holm-corrected" : ""
  }

  static func describe(_ table: ReplicationTable) -> String {
    let replications = Set(table.series.values.flatMap(\.values.keys)).count
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
