/// The comparison as Markdown for a CI job's summary page (GitHub Actions' `GITHUB_STEP_SUMMARY`): the
/// verdict first, the gate table with each change's 95% CI and the gate's p-value, the warnings, and what
/// else changed. Link-free: the page shows it as it is. Every piece of text goes through ``cell(_:)``, the
/// fixed words too, so no line renders differently from the next; verdicts carry a mark, ✅ pass and ❌ fail,
/// so a reader scanning the page sees both.
public enum StepSummary {
  static let passMark = "✅"
  static let failMark = "❌"

  public static func markdown(_ comparison: Comparison, title: String) -> String {
    var lines = ["### \(cell(title))", ""]
    let verdict = ComparisonReport.verdict(comparison)
    lines.append("\(comparison.failures.isEmpty ? passMark : failMark) **\(cell(verdict))**")
    lines.append("")
    let gated = comparison.gated
    if !gated.isEmpty {
      lines.append(
        "| metric | widget | baseline | candidate | change | 95% CI of difference | gate | gate p | verdict |")
      lines.append("|---|---|--:|--:|--:|---|---|--:|---|")
      for row in gated {
        let cells =
          [row.key.metric, row.key.widget] + ComparisonReport.figures(row, units: true) + [
            row.gate?.description ?? "", row.gatePValue.map(ComparisonReport.probability) ?? "",
          ]
        let verdict = row.verdict == .fail ? "\(failMark) **FAIL**" : "\(passMark) pass"
        lines.append("| " + (cells.map(cell) + [verdict]).joined(separator: " | ") + " |")
      }
      lines.append("")
      lines.append(cell(ComparisonReport.legend(comparison)))
      lines.append("")
    }
    for warning in comparison.warnings { lines.append("> warning: \(cell(warning))") }
    if !comparison.warnings.isEmpty { lines.append("") }
    let changed = comparison.ungatedChanges
    lines.append(
      cell(
        "\(changed.count) of \(comparison.rows.count - gated.count) ungated metrics changed significantly "
          + "(two-sided p < \(comparison.alpha)); compare.csv has every metric."))
    lines.append(
      "Baseline: \(cell(ComparisonReport.describe(comparison.baseline))); candidate: "
        + "\(cell(ComparisonReport.describe(comparison.candidate))).")
    return lines.joined(separator: "\n") + "\n\n"
  }

  /// Text made safe in a table cell or a line: no pipes, no line breaks, no HTML (`&`, `<` and `>` as
  /// entities, so `&lt;` in a path stays as written).
  static func cell(_ text: String) -> String {
    text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
      .replacing("|", with: "\\|").replacing("\r\n", with: " ").replacing("\n", with: " ").replacing("\r", with: " ")
  }
}
