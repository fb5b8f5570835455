import Reports

/// The gates as JUnit XML, the test-report format CI systems read (Jenkins, GitLab, Buildkite, Xcode Cloud):
/// one `testsuite` for the comparison, one `testcase` per gated metric (named `metric@widget`), with a
/// `failure` giving the numbers when the gate failed. No timestamps, and every `time` is 0 (readers such as
/// Jenkins and GitLab expect the attribute): a gate is a test on figures already measured, and a clock
/// reading would make the file differ between identical runs. The `time` property says so in the file.
public enum JUnitReport {
  /// Why every `time` is 0, written as the `time` property.
  static let timeReason =
    "0: each gate tests figures the runs already measured; nothing is timed, so the same runs give the same file"

  public static func xml(_ comparison: Comparison, suite: String) -> String {
    let gated = comparison.gated
    let failures = comparison.failures.count
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="widgetsim" tests="\#(gated.count)" failures="\#(failures)" errors="0" time="0">"#,
      #"  <testsuite name="\#(escape(suite))" tests="\#(gated.count)" failures="\#(failures)" errors="0" skipped="0" time="0">"#,
      "    <properties>",
      #"      <property name="baseline" value="\#(escape(ComparisonReport.describe(comparison.baseline)))"/>"#,
      #"      <property name="candidate" value="\#(escape(ComparisonReport.describe(comparison.candidate)))"/>"#,
      #"      <property name="alpha" value="\#(comparison.alpha)"/>"#,
      #"      <property name="correction" value="\#(comparison.correction.rawValue)"/>"#,
      #"      <property name="time" value="\#(escape(timeReason))"/>"#,
    ]
    for warning in comparison.warnings {
      lines.append(#"      <property name="warning" value="\#(escape(warning))"/>"#)
    }
    lines.append("    </properties>")
    for row in gated {
      let name = escape("\(row.key.metric)@\(row.key.widget)")
      let open = #"    <testcase name="\#(name)" classname="widgetsim.gates.\#(escape(row.key.metric))" time="0""#
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
