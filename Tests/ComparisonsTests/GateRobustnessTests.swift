import Reports
import TestSupport
import Testing

@testable import Comparisons

/// A gate that does not cry wolf: floors under relative tolerances, refusals and warnings where a gate
/// cannot judge, one p-value everywhere, Holm's correction by default, and a false-alarm rate within the
/// binomial bound on an unchanged scenario.
@Suite("Robust gates")
struct GateRobustnessTests {
  @Test("a floor under a relative tolerance: parsed, printed back, and the larger of the two is tolerated")
  func floors() throws {
    let gate = try Gate(parsing: "joules_per_day@orders:+5%+1.5")
    #expect(gate.tolerance == .relative(0.05) && gate.floor == 1.5 && gate.widget == "orders")
    #expect(gate.description == "joules_per_day@orders:+5%+1.5")
    #expect(gate.margin(baselineMean: 10) == 1.5)
    #expect(abs(gate.margin(baselineMean: 100) - 5) < 1e-12)
    #expect(try Gate(parsing: "staleness_mean:+5%").floor == nil)
    for bad in [
      "joules_per_day:+5%1", "joules_per_day:+5%+", "joules_per_day:+5%+x", "joules_per_day:+5%-1",
      "joules_per_day:+5%++1", "joules_per_day:+5%+0x10",
    ] {
      #expect(throws: ComparisonError.self, "\(bad)") { try Gate(parsing: bad) }
    }
    #expect(
      Gate.defaults.map(\.description) == [
        "phone_mwh_per_day:+5%+0.28", "joules_per_day:+5%+1", "staleness_mean:+5%+30",
      ])
  }

  @Test("a relative tolerance without a floor on a baseline mean of 0 is refused, naming the fix")
  func zeroBaselineRefused() throws {
    let baseline = try table([("staleness_p95", "orders", "s", [0, 0, 0])])
    let candidate = try table([("staleness_p95", "orders", "s", [0, 1, 0])])
    let error = #expect(throws: ComparisonError.self) {
      try Comparison(
        baseline: baseline, candidate: candidate, gates: [try Gate(parsing: "staleness_p95:+10%")])
    }
    #expect(error?.message.contains("is 0, so a relative tolerance tolerates no change at all") == true)
    #expect(error?.message.contains("staleness_p95:+10%+30 (30 s)") == true)
    // Refused before a run, from the baseline alone (check runs the candidate only after this).
    #expect(throws: ComparisonError.self) {
      try Comparison.checkGates([try Gate(parsing: "staleness_p95:+10%")], against: baseline)
    }
    // A 0-1 share's floor is in its own scale: a point, not 1 (which would switch the gate off).
    let share = try table([("budget_exhausted_day_share", "orders", "fraction", [0, 0, 0])])
    let early = #expect(throws: ComparisonError.self) {
      try Comparison.checkGates([try Gate(parsing: "budget_exhausted_day_share:+10%")], against: share)
    }
    #expect(early?.message.contains("budget_exhausted_day_share:+10%+0.01 (one point of a 0-1 share)") == true)
    #expect(early?.message.contains("+10%+1 ") == false)
    // With a floor it is judged (and passes: +0.33 s is within 1 s).
    let judged = try Comparison(
      baseline: baseline, candidate: candidate, gates: [try Gate(parsing: "staleness_p95:+10%+1")])
    #expect(judged.failures.isEmpty)
  }

  @Test("a gate against its metric's direction warns that it can fail only on an improvement")
  func directionWarnings() throws {
    let before = try table([("staleness_mean", "app", "s", [100, 110, 105])])
    let after = try table([("staleness_mean", "app", "s", [1_300, 1_400, 1_350])])
    let backwards = try Gate(parsing: "staleness_mean:-5%")
    let comparison = try Comparison(baseline: before, candidate: after, gates: [backwards])
    // Staleness rose 1,200% and the gate passes: the warning says why.
    #expect(comparison.failures.isEmpty)
    #expect(
      comparison.warnings.contains(
        "gate staleness_mean:-5% fails only on a fall of staleness_mean, and a lower staleness_mean is better: "
          + "it can fail only on an improvement and passes any regression (did you mean staleness_mean:+5%?)"))
    #expect(backwards.directionWarning != nil)
    #expect(try Gate(parsing: "staleness_mean:+5%").directionWarning == nil)
    #expect(try Gate(parsing: "min_state_of_charge:+1").directionWarning?.contains("min_state_of_charge:-1") == true)
    #expect(try Gate(parsing: "min_state_of_charge:-1").directionWarning == nil)
    // A metric whose better direction depends on the reader is not second-guessed.
    #expect(try Gate(parsing: "views_per_day:+5%").directionWarning == nil)
    #expect(Gate.defaults.allSatisfy { $0.directionWarning == nil })
  }

  @Test("warnings: a constant baseline, and runs of different sizes or seeds")
  func warnings() throws {
    let constant = try table([("joules_per_day", "app", "J/day", [0.8, 0.8, 0.8])])
    let varied = try table([("joules_per_day", "app", "J/day", [0.8, 0.9, 0.7])])
    let gate = try Gate(parsing: "joules_per_day:+5%+1")
    let flat = try Comparison(baseline: constant, candidate: varied, gates: [gate])
    #expect(flat.warnings.count == 1 && flat.warnings[0].contains("every baseline replication reads 0.8: the test"))
    #expect(try Comparison(baseline: varied, candidate: constant, gates: [gate]).warnings.isEmpty)

    let five = try table([("joules_per_day", "app", "J/day", [0.8, 0.9, 0.7, 0.8, 0.85])])
    let sizes = try Comparison(baseline: varied, candidate: five, gates: [gate])
    #expect(!sizes.paired)
    #expect(
      sizes.warnings == [
        "the baseline has 3 replications and the candidate 5: the tests cannot pair them (Welch, less sensitive); "
          + "run the candidate with the baseline's seed and --replications 3"
      ])
    let otherSeed = try table([("joules_per_day", "app", "J/day", [0.8, 0.9, 0.7])], seed: 2)
    #expect(
      try Comparison(baseline: varied, candidate: otherSeed, gates: [gate]).warnings.first?.hasPrefix(
        "the runs used different seeds") == true)
    // The console text and the step summary carry them.
    #expect(ComparisonReport.text(sizes).contains("warning: the baseline has 3 replications"))
    #expect(StepSummary.markdown(sizes, title: "t").contains("> warning: the baseline has 3 replications"))
  }

  @Test("Holm's adjusted p-values: a known answer, and rejections exactly where the step-down procedure stops")
  func holmAdjusted() {
    // Sorted 0.01, 0.03, 0.04 with m = 3: 3 x 0.01 = 0.03; max(0.03, 2 x 0.03) = 0.06; max(0.06, 0.04) = 0.06.
    let adjusted = MultipleTestCorrection.holm.adjusted([0.01, 0.04, 0.03])
    #expect(zip(adjusted, [0.03, 0.06, 0.06]).allSatisfy { abs($0 - $1) < 1e-15 })
    #expect(MultipleTestCorrection.holm.rejections([0.01, 0.04, 0.03], alpha: 0.05) == [true, false, false])
    // Capped at 1, and never below an earlier (smaller) p's adjustment.
    #expect(MultipleTestCorrection.holm.adjusted([0.5, 0.9]) == [1, 1])
    #expect(MultipleTestCorrection.none.adjusted([0.01, 0.04]) == [0.01, 0.04])
  }

  @Test("one p-value: the table, the failure line, compare.csv and the JUnit failure give the gate's adjusted p")
  func onePValue() throws {
    let baseline = try table([
      ("joules_per_day", "orders", "J/day", [10, 10.2, 9.9, 10.1, 10]),
      ("joules_per_day", "deals", "J/day", [5, 5.1, 4.9, 5, 5.05]),
    ])
    let candidate = try table([
      ("joules_per_day", "orders", "J/day", [11.4, 11.9, 11.2, 11.8, 11.5]),
      ("joules_per_day", "deals", "J/day", [5, 5.1, 4.9, 5, 5.05]),
    ])
    let comparison = try Comparison(
      baseline: baseline, candidate: candidate, gates: [try Gate(parsing: "joules_per_day:+5%")])
    let failed = try #require(comparison.failures.first)
    let test = try #require(failed.test)
    let gate = try #require(failed.gate)
    let raw = test.pValue(worseBy: gate.margin(baselineMean: test.baselineMean), direction: .higherIsWorse)
    let adjusted = try #require(failed.gatePValue)
    #expect(abs(adjusted - Swift.min(1, 2 * raw)) < 1e-15, "Holm over two gated metrics doubles the smaller p")
    let shown = ComparisonReport.probability(adjusted)
    let text = ComparisonReport.text(comparison)
    let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("joules_per_day  orders") })
    #expect(row.contains(shown) && !row.contains(ComparisonReport.probability(raw)))
    #expect(text.contains("failed gate: \(ComparisonReport.failureText(failed))"))
    #expect(ComparisonReport.failureText(failed).hasSuffix("gate p = \(shown)"))
    #expect(ComparisonReport.csv(comparison).contains(",joules_per_day:+5%,\(adjusted),fail\n"))
    #expect(JUnitReport.xml(comparison, suite: "t").contains("gate p = \(shown)"))
    #expect(ComparisonReport.verdict(comparison).hasPrefix("FAIL: 1 of 2 gated metrics"))
  }

  @Test("false alarms: an unchanged scenario checked under 20 other seeds fails the default gates at most 3 times")
  func falseAlarms() throws {
    // Each comparison is Welch (other seed) over every subject the default gates match, Holm-corrected: the
    // chance that it fails is at most alpha = 0.05, so over 20 seeds P(4 or more failures) <= 1.6%
    // (binomial, n = 20, p = 0.05). Seeds are fixed: the count is the same on every run. The quickstart
    // phone with 3 replications is the case users met: its five gated subjects include the push wake-ups
    // (0.02 J/day); the old defaults (no floors, each subject at alpha) failed 6 of these 20 seeds.
    let scenario = "Scenarios/quickstart.yaml"
    let baseline = try runTable(scenario, overrides: ["replications=3"])
    var failures = 0
    var gated = 0
    for seed in 101...120 {
      let candidate = try runTable(scenario, overrides: ["replications=3", "seed=\(seed)"])
      let comparison = try Comparison(baseline: baseline, candidate: candidate, gates: Gate.defaults)
      gated = comparison.gated.count
      if !comparison.failures.isEmpty { failures += 1 }
    }
    #expect(gated >= 3, "several metrics gated: the correction is at work")
    #expect(failures <= 3, "\(failures) of 20 unchanged runs failed the default gates")
  }
}
