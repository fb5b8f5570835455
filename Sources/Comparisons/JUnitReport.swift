import Reports

/// The gates as JUnit XML, the test-report format CI systems read (Jenkins, GitLab, Buildkite, Xcode Cloud):
/// one `testsuite` for the comparison, one `testcase` per gated metric (named `metric@widget`), with a
/// `failure` giving the numbers when the gate failed. No timestamps or durations, so the file is the same
/// for the same runs.
public enum JUnitReport {
  public static func xml(_ comparison: Comparison, suite: String) -> String {
    let gated = comparison.gated
    let failures = comparison.failures.count
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="widgetsim" tests="\#(gated.count)" failures="\#(failures)" errors="0">"#,
      #"  <testsuite name="\#(escape(suite))" tests="\#(gated.count)" failures="\#(failures)" errors="0" skipped="0">"#,
      "    <properties>",
      #"      <property name="baseline" value="\#(escape(ComparisonReport.describe(comparison.baseline)))"/>"#,
      #"      <property name="candidate" value="\#(escape(ComparisonReport.describe(comparison.candidate)))"/>"#,
      #"      <property name="alpha" value="\#(comparison.alpha)"/>"#,
      #"      <property name="correction" value="\#(comparison.correction.rawValue)"/>"#,
    ]
    for warning in comparison.warnings {
      lines.append(#"      <property name="warning" value="\#(escape(warning))"/>"#)
    }
    lines.append("    </properties>")
    for row in gated {
      let name = escape("\(row.key.metric)@\(row.key.widget)")
      let open = #"    <testcase name="\#(name)" classname="widgetsim.gates.\#(escape(row.key.metric))""#
      guard row.verdict == .fail else {
        lines.append(open + "/>")
        continue
      }
      let text = ComparisonReport.failureText(row)
      lines.append(open + ">")
      lines.append(#"      <failure message="\#(escape(text))" type="GateFailed">\#(escape(details(row)))</failure>"#)
      lines.append("    </testcase>")
    }
    lines.append("  </testsuite>")
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The failure's body: every figure of the test.
  static func details(_ row: Comparison.Row) -> String {
    guard let test = row.test else { return "" }
    let interval = test.interval()
    return [
      "baseline mean: \(test.baselineMean) \(row.unit)", "candidate mean: \(test.candidateMean) \(row.unit)",
      "difference: \(test.difference) (95% CI \(interval.low) to \(interval.high))",
      "test: \(test.method.rawValue), \(test.degreesOfFreedom) degrees of freedom",
      "gate: \(row.gate?.description ?? ""), gate p: \(row.gatePValue ?? .nan)",
    ].joined(separator: "\n")
  }

  /// Text as XML character data or an attribute value.
  static func escape(_ text: String) -> String {
    MarkupText.escaped(text, xml: true)
  }
}
