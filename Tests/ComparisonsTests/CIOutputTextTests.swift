import Reports
import SimulationEngine
import TestSupport
import Testing

@testable import Comparisons

/// What the CI outputs say, as text: the step summary's escaping and marks, the JUnit file's times, and the
/// message of a gate that names nothing the runs have.
@Suite("CI output text")
struct CIOutputTextTests {
  /// Two gated metrics on one widget: energy much worse (fails), staleness unchanged (passes); the baseline's
  /// path holds markup characters.
  static func mixed() throws -> Comparison {
    let baseline = try table(
      [
        ("joules_per_day", "w", "J/day", [10, 10.2, 9.8, 10.1, 9.9]),
        ("staleness_mean", "w", "s", [100, 102, 98, 101, 99]),
        ("reloads_per_day", "w", "1/day", [5, 6, 5, 6, 5]),
      ], path: "runs/<old> & a|b.csv")
    let candidate = try table([
      ("joules_per_day", "w", "J/day", [11.3, 11.5, 11.1, 11.4, 11.2]),
      ("staleness_mean", "w", "s", [101, 101, 99, 100, 100]),
      ("reloads_per_day", "w", "1/day", [5, 6, 6, 5, 5]),
    ])
    let gates = [try Gate(parsing: "joules_per_day:+5%"), try Gate(parsing: "staleness_mean:+5%")]
    return try Comparison(baseline: baseline, candidate: candidate, gates: gates)
  }

  @Test("the step summary escapes every line alike and marks passes as well as failures")
  func stepSummary() throws {
    let comparison = try Self.mixed()
    #expect(comparison.failures.count == 1 && comparison.gated.count == 2)
    let markdown = StepSummary.markdown(comparison, title: "check <a> & b\nc")
    // No raw markup anywhere: the title, the p-values, the ungated line's "p <" and the path are escaped.
    #expect(!markdown.contains("<"), "\(markdown)")
    #expect(markdown.hasPrefix("### check &lt;a&gt; &amp; b c\n"))
    #expect(markdown.contains("(two-sided p &lt; 0.05)"))
    #expect(markdown.contains("Baseline: runs/&lt;old&gt; &amp; a\\|b.csv (5 replications, seed 1)"))
    let lines = markdown.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("❌ **FAIL: 1 of 2 gated metrics") })
    let energy = try #require(lines.first { $0.hasPrefix("| joules_per_day |") })
    let staleness = try #require(lines.first { $0.hasPrefix("| staleness_mean |") })
    #expect(energy.hasSuffix("| ❌ **FAIL** |") && energy.contains("| &lt;0.0001 |"), "\(energy)")
    #expect(staleness.hasSuffix("| ✅ pass |"), "\(staleness)")
    // A comparison with no failure leads with the pass mark.
    let passing = try Comparison(
      baseline: comparison.candidate, candidate: comparison.baseline, gates: [try Gate(parsing: "joules_per_day:+5%")])
    #expect(StepSummary.markdown(passing, title: "t").contains("\n✅ **OK: "))
  }

  @Test("every JUnit testcase, the suite and the root have time=\"0\", with the reason as a property")
  func junitTimes() throws {
    let xml = JUnitReport.xml(try Self.mixed(), suite: "t")
    let testcases = xml.split(separator: "\n").filter { $0.contains("<testcase ") }
    #expect(testcases.count == 2)
    #expect(testcases.allSatisfy { $0.contains(#" time="0""#) }, "\(testcases)")
    #expect(xml.contains(#"<testsuites name="widgetsim" tests="2" failures="1" errors="0" time="0">"#))
    #expect(xml.contains(#"errors="0" skipped="0" time="0">"#))
    #expect(xml.contains(#"<property name="time" value="0: each gate tests figures the runs already measured"#))
  }

  @Test("a mistyped gate suggests the nearest names in one short line, not every metric")
  func unknownGate() throws {
    let comparison = try Self.mixed()
    let (baseline, candidate) = (comparison.baseline, comparison.candidate)
    func message(_ gate: String) throws -> String {
      let error = #expect(throws: ComparisonError.self) {
        try Comparison(baseline: baseline, candidate: candidate, gates: [try Gate(parsing: gate)])
      }
      return error?.message ?? ""
    }
    let typo = try message("joule_per_day:+5%")
    #expect(
      typo.hasSuffix("no metric 'joule_per_day' in runs/<old> & a|b.csv or test.csv (did you mean 'joules_per_day'?)"))
    // Nothing within the edit limit: a name holding the word; failing that, how to list them all.
    #expect(try message("reloads:+5%").hasSuffix("(did you mean 'reloads_per_day'?)"))
    let far = try message("battery_drain:+5%")
    #expect(far.hasSuffix("(3 metrics: `widgetsim compare --no-gates --all` lists them)"), "\(far)")
    // A metric both have, on a widget neither has.
    #expect(
      try message("joules_per_day@x:+5%").hasSuffix(
        "joules_per_day has no widget 'x' in runs/<old> & a|b.csv or test.csv (did you mean 'w'?)"))
    #expect(try message("joules_per_day@orders:+5%").hasSuffix("; it has 'w'"))
    for text in [typo, far] { #expect(text.count < 200, "\(text)") }
    // check refuses it against the baseline alone, before its run.
    let early = #expect(throws: ComparisonError.self) {
      try Comparison.checkGates([try Gate(parsing: "joule_per_day:+5%")], against: baseline)
    }
    #expect(early?.message.hasSuffix("in runs/<old> & a|b.csv (did you mean 'joules_per_day'?)") == true)
    try Comparison.checkGates(Gate.defaults, against: baseline)
  }

  @Test("nearest names: all at the least distance, up to three; a name holding the word; nothing")
  func nearestNames() {
    let names = ["staleness_mean", "staleness_p95", "staleness_p50", "joules_per_day"]
    #expect(DidYouMean.nearest(to: "staleness_p90", among: names) == ["staleness_p95", "staleness_p50"])
    #expect(DidYouMean.nearest(to: "p95", among: names) == ["staleness_p95"])
    #expect(DidYouMean.nearest(to: "staleness", among: names, atMost: 2) == ["staleness_mean", "staleness_p95"])
    #expect(DidYouMean.nearest(to: "battery", among: names).isEmpty)
    #expect(DidYouMean.alternatives(["a", "b", "c"]) == "'a', 'b' or 'c'")
    #expect(DidYouMean.suggestion(for: "p95", among: names) == nil, "one suggestion stays by edit distance alone")
  }
}
