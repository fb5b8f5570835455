import CGSL
import Reports
import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

@testable import Comparisons

/// A replications table from literal values of one metric (`values[r]` is replication r).
func table(
  _ series: [(metric: String, widget: String, unit: String, values: [Double])], seed: UInt64 = 1,
  path: String = "test.csv"
) throws -> ReplicationTable {
  var text = "seed,replication,metric,widget,value,unit\n"
  for (metric, widget, unit, values) in series {
    for (replication, value) in values.enumerated() {
      text += "\(seed),\(replication),\(metric),\(widget),\(value.isFinite ? "\(value)" : ""),\(unit)\n"
    }
  }
  return try ReplicationTable.parse(text, path: path)
}

/// Runs a scenario file and reads back its replications.csv.
func runTable(_ file: String, overrides: [String] = []) throws -> ReplicationTable {
  let loaded = try ScenarioLoader.load(
    path: Repository.path(file), overrides: overrides.map { try ScenarioOverride($0) })
  let directory = TestFiles.temporaryDirectory()
  let metadata = RunMetadata(
    widgetsimVersion: "test", scenarioFile: loaded.file, scenarioText: loaded.text, overrides: overrides,
    wallTimeSeconds: 0)
  try RunReports.write(
    configuration: loaded.configuration, results: ScenarioRunner.run(loaded.configuration), metadata: metadata,
    to: directory)
  return try ReplicationTable.load(directory)
}

@Suite("Comparing runs")
struct ComparisonTests {
  // Reference values from SciPy 1.17.1 (scipy.stats.ttest_ind(c, b, equal_var=False), ttest_rel(c, b),
  // and t.sf for the one-sided margin test), computed outside this project.
  static let baseline = [12.1, 11.4, 13.0, 12.7, 11.9, 12.3]
  static let candidate = [13.2, 12.0, 14.1, 13.5, 12.2, 13.9]

  @Test("Welch's test: statistic, degrees of freedom, p-value and CI match an independent computation and SciPy")
  func welch() throws {
    let test = try #require(DifferenceTest.welch(baseline: Self.baseline, candidate: Self.candidate))
    // Independently: the textbook formulas, then GSL's t distribution directly.
    func moments(_ values: [Double]) -> (mean: Double, variance: Double) {
      let mean = values.reduce(0, +) / Double(values.count)
      return (mean, values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1))
    }
    let (mb, vb) = moments(Self.baseline)
    let (mc, vc) = moments(Self.candidate)
    let a = vb / 6
    let b = vc / 6
    let t = (mc - mb) / (a + b).squareRoot()
    let df = (a + b) * (a + b) / (a * a / 5 + b * b / 5)
    #expect(abs(test.degreesOfFreedom - df) < 1e-12)
    #expect(abs(test.pValue - 2 * gsl_cdf_tdist_Q(abs(t), df)) < 1e-14)
    #expect(abs(t - 2.150999113361902) < 1e-12)
    #expect(abs(test.degreesOfFreedom - 8.618142876336647) < 1e-10)
    #expect(abs(test.pValue - 0.06126097937415818) < 1e-12)
    let interval = test.interval()
    #expect(abs(interval.low - -0.05392170791416162) < 1e-10)
    #expect(abs(interval.high - 1.8872550412474938) < 1e-10)
  }

  @Test("paired test and one-sided margin test match SciPy")
  func paired() throws {
    let test = try #require(DifferenceTest.paired(baseline: Self.baseline, candidate: Self.candidate))
    #expect(test.degreesOfFreedom == 5)
    #expect(abs(test.difference / test.standardError - 4.951138892933124) < 1e-12)
    #expect(abs(test.pValue - 0.004280731122208265) < 1e-13)
    #expect(abs(test.pValue(worseBy: 0.5, direction: .higherIsWorse) - 0.03711436216190627) < 1e-13)
    // A fall is not worse when a rise is what hurts: the mirrored test cannot reject.
    #expect(test.pValue(worseBy: 0.5, direction: .lowerIsWorse) > 0.99)
  }

  @Test("identical runs compare as no difference, and nothing gates")
  func identicalRuns() throws {
    let first = try runTable("Scenarios/regression/baseline.yaml", overrides: ["replications=4"])
    let second = try runTable("Scenarios/regression/baseline.yaml", overrides: ["replications=4"])
    let comparison = try Comparison(baseline: first, candidate: second, gates: Gate.defaults)
    #expect(comparison.paired)
    #expect(comparison.rows.count == first.keys.count)
    #expect(comparison.failures.isEmpty)
    for row in comparison.rows {
      guard let test = row.test else { continue }
      #expect(test.difference == 0, "\(row.key)")
      #expect(test.pValue == 1, "\(row.key)")
    }
    // The default gates: the phone's cost, staleness of the widget, and joules of the widget and of the app's
    // own runs.
    #expect(comparison.rows.filter { $0.gate != nil }.count == 4)
  }

  @Test("three times the refresh rate costs more joules: the gate fails and names the metric; a wide tolerance passes")
  func worseCandidateFails() throws {
    let baseline = try runTable("Scenarios/regression/baseline.yaml", overrides: ["replications=4"])
    let candidate = try runTable("Scenarios/regression/candidate.yaml", overrides: ["replications=4"])
    let gate = try Gate(parsing: "joules_per_day@forecast:+5%")
    let comparison = try Comparison(baseline: baseline, candidate: candidate, gates: [gate])
    #expect(comparison.failures.map(\.key) == [ReplicationTable.Key(metric: "joules_per_day", widget: "forecast")])
    #expect(ComparisonReport.verdict(comparison).hasPrefix("FAIL: 1 of 1 gated metrics"))
    #expect(ComparisonReport.text(comparison).contains("joules_per_day (forecast)"))
    // Energy roughly doubles: within a +150% tolerance it passes, as it does when only a fall would hurt.
    for tolerant in ["joules_per_day@forecast:+150%", "joules_per_day@forecast:-5%", "joules_per_day:+100"] {
      let passing = try Comparison(baseline: baseline, candidate: candidate, gates: [try Gate(parsing: tolerant)])
      #expect(passing.failures.isEmpty, "\(tolerant)")
    }
  }

  @Test("a difference within tolerance passes; beyond it, significance decides")
  func tolerance() throws {
    let base = try table([("joules_per_day", "w", "J/day", [10, 10.2, 9.8, 10.1, 9.9])])
    let slightlyWorse = try table([("joules_per_day", "w", "J/day", [10.3, 10.5, 10.1, 10.4, 10.2])])
    let gate = try Gate(parsing: "joules_per_day:+5%")
    #expect(try Comparison(baseline: base, candidate: slightlyWorse, gates: [gate]).failures.isEmpty)
    let muchWorse = try table([("joules_per_day", "w", "J/day", [11.3, 11.5, 11.1, 11.4, 11.2])])
    #expect(try Comparison(baseline: base, candidate: muchWorse, gates: [gate]).failures.count == 1)
    // Worse by 13% on average but all over the place: not significant beyond 5% at alpha 0.05.
    let noisy = try table([("joules_per_day", "w", "J/day", [8, 14, 9, 15, 10.5])])
    #expect(try Comparison(baseline: base, candidate: noisy, gates: [gate]).failures.isEmpty)
  }

  @Test("mismatched or malformed inputs are errors that name what is wrong")
  func mismatchedInputs() throws {
    let base = try table([("joules_per_day", "a", "J/day", [1, 2, 3])])
    let otherWidget = try table([("joules_per_day", "b", "J/day", [1, 2, 3])], path: "other.csv")
    #expect(throws: ComparisonError.self) {
      try Comparison(baseline: base, candidate: otherWidget, gates: Gate.defaults)
    }
    do {
      _ = try Comparison(baseline: base, candidate: otherWidget, gates: [try Gate(parsing: "joules_per_day:+5%")])
      Issue.record("a gated metric missing on one side must be an error")
    } catch {
      #expect(error.message.contains("joules_per_day (a) is missing from other.csv"))
    }
    do {
      _ = try Comparison(baseline: base, candidate: base, gates: [try Gate(parsing: "joule_per_day:+5%")])
      Issue.record("an unknown gated metric must be an error")
    } catch {
      #expect(error.message.contains("no metric 'joule_per_day'"))
    }
    let otherUnit = try table([("joules_per_day", "a", "kJ/day", [1, 2, 3])])
    #expect(throws: ComparisonError.self) { try Comparison(baseline: base, candidate: otherUnit, gates: []) }
    // Values a double holds but whose squares overflow are refused when read (above); the test itself
    // reports them as not finite, which Comparison turns into an error rather than a pass.
    let overflowing = try #require(DifferenceTest.paired(baseline: [1, 2, 3], candidate: [1e300, -1e300, 1e300]))
    #expect(!overflowing.isFinite)
    let ordinary = try table([("joules_per_day", "a", "J/day", [1e17, 9e17, 1e18])])
    #expect(
      try Comparison(baseline: ordinary, candidate: ordinary, gates: []).rows.allSatisfy { $0.test?.isFinite == true })
    let single = try table([("joules_per_day", "a", "J/day", [1])])
    #expect(throws: ComparisonError.self) { try Comparison(baseline: single, candidate: single, gates: Gate.defaults) }

    let malformed: [(text: String, message: String)] = [
      ("seed,replication,metric\n", "f.csv:1:1: header is 'seed,replication,metric'"),
      ("seed,replication,metric,widget,value,unit\n1,0,m,w,abc,u\n", "f.csv:2:5: value 'abc' is not a number"),
      ("seed,replication,metric,widget,value,unit\n1,x,m,w,1,u\n", "f.csv:2:2: replication 'x'"),
      ("seed,replication,metric,widget,value,unit\n1,0,m,w,1\n", "f.csv:2:1: 5 fields; expected 6"),
      (
        "seed,replication,metric,widget,value,unit\n1,0,m,w,1,u\n1,0,m,w,2,u\n",
        "f.csv:3:2: replication 0 of m (w) appears twice"
      ),
      ("seed,replication,metric,widget,value,unit\n1,0,m,w,1,u\n1,1,m,w,2,v\n", "f.csv:3:6: unit 'v'"),
      ("", "f.csv:1:1: empty file"),
      ("seed,replication,metric,widget,value,unit\n1,0,m,w,-0.5,J/day\n", "f.csv:2:5: value -0.5 is outside 0..."),
      ("seed,replication,metric,widget,value,unit\n1,0,m,w,1e300,J/day\n", "f.csv:2:5: value 1e300 is outside 0..."),
    ]
    for (text, message) in malformed {
      do {
        _ = try ReplicationTable.parse(text, path: "f.csv")
        Issue.record("parsed malformed input: \(text)")
      } catch {
        #expect(error.message.hasPrefix(message), "\(error.message)")
      }
    }
  }

  @Test("replications files with CRLF line endings and a byte-order mark read like plain ones")
  func crlf() throws {
    let plain = "seed,replication,metric,widget,value,unit\n7,0,m,\"w,1\",1.5,u\n7,1,m,\"w,1\",,u\n"
    let windows = "\u{FEFF}" + plain.split(separator: "\n").map { $0 + "\r\n" }.joined()
    for text in [plain, windows] {
      let table = try ReplicationTable.parse(text, path: "f.csv")
      let key = ReplicationTable.Key(metric: "m", widget: "w,1")
      #expect(table.keys == [key])
      #expect(table.series[key]?.unit == "u")
      #expect(table.series[key]?.values[0] == 1.5)
      #expect(table.series[key]?.values[1]?.isNaN == true)
    }
  }

  @Test("gates parse with direction, relative or absolute tolerance, and optional widget; bad gates are errors")
  func gates() throws {
    #expect(
      try Gate(parsing: "joules_per_day:+5%")
        == Gate(metric: "joules_per_day", direction: .higherIsWorse, tolerance: .relative(0.05)))
    #expect(
      try Gate(parsing: "views_per_day@headlines:-2")
        == Gate(metric: "views_per_day", widget: "headlines", direction: .lowerIsWorse, tolerance: .absolute(2)))
    #expect(try Gate(parsing: "staleness_p95@score:+12.5%").description == "staleness_p95@score:+12.5%")
    for bad in ["joules_per_day", "joules_per_day:5%", "joules_per_day:+x", ":+5%", "joules_per_day@:+5%", "a:+-1"] {
      #expect(throws: ComparisonError.self, "\(bad)") { try Gate(parsing: bad) }
    }
  }

  @Test("Holm's step-down rejects in order of p while p <= alpha / (gates left); without it each gate stands alone")
  func holm() throws {
    let pValues = [0.01, 0.04, 0.03, 0.2, 0.011]
    #expect(MultipleTestCorrection.none.rejections(pValues, alpha: 0.05) == [true, true, true, false, true])
    // Sorted: 0.01 <= 0.05/5, 0.011 <= 0.05/4, 0.03 > 0.05/3: stop.
    #expect(MultipleTestCorrection.holm.rejections(pValues, alpha: 0.05) == [true, false, false, false, true])
    #expect(MultipleTestCorrection.holm.rejections([], alpha: 0.05) == [])
    #expect(MultipleTestCorrection.holm.rejections([0.049], alpha: 0.05) == [true])

    // Two gated widgets each worse with one-sided (Welch) p about 0.03: both fail alone, neither after Holm.
    let base = try table([
      ("joules_per_day", "a", "J/day", [10, 11, 9, 10.5, 9.5]),
      ("joules_per_day", "b", "J/day", [10, 11, 9, 10.5, 9.5]),
    ])
    let worse = try table(
      [
        ("joules_per_day", "a", "J/day", [11.2, 11.9, 10.1, 11.8, 10.5]),
        ("joules_per_day", "b", "J/day", [11.2, 11.9, 10.1, 11.8, 10.5]),
      ], seed: 2)
    let gate = try Gate(parsing: "joules_per_day:+0%")
    let alone = try Comparison(baseline: base, candidate: worse, gates: [gate], correction: .none)
    let p = try #require(alone.rows.first?.gatePValue)
    #expect(p > 0.025 && p < 0.05, "one-sided p \(p)")
    #expect(alone.failures.count == 2)
    let corrected = try Comparison(baseline: base, candidate: worse, gates: [gate], correction: .holm)
    #expect(corrected.failures.isEmpty)
    #expect(corrected.rows.first?.gatePValue == 2 * p, "the Holm-adjusted p-value is what is reported")
  }

  @Test("compare.csv has one row per metric with the test's figures")
  func csv() throws {
    let base = try table([("joules_per_day", "w", "J/day", Self.baseline)])
    let candidate = try table([("joules_per_day", "w", "J/day", Self.candidate)], seed: 2)
    let comparison = try Comparison(
      baseline: base, candidate: candidate, gates: [try Gate(parsing: "joules_per_day:+1%")])
    #expect(!comparison.paired)
    let lines = ComparisonReport.csv(comparison).split(separator: "\n")
    #expect(lines.count == 2)
    let cells = lines[1].split(separator: ",", omittingEmptySubsequences: false)
    #expect(cells.count == ComparisonReport.header.split(separator: ",").count)
    #expect(cells[9] == "welch")
    #expect(abs((Double(cells[11]) ?? 0) - 0.06126097937415818) < 1e-12)
    #expect(cells[12] == "joules_per_day:+1%")
  }
}

@Suite("The documented regression example")
struct DocumentedExampleTests {
  @Test("the `check` example in docs/gates.md reproduces exactly as written")
  func readmeExample() throws {
    let expected = try DocumentedExample.block("check-example", in: "docs/gates.md")

    // What `widgetsim check Scenarios/regression/candidate.yaml --baseline Scenarios/regression/baseline.csv
    // --out Reports/regression-candidate --quiet` prints, with the run written to a temporary folder.
    let run = try runTable("Scenarios/regression/candidate.yaml")
    let candidateText = try TestFiles.read(run.path)
    let candidate = try ReplicationTable.parse(candidateText, path: "Reports/regression-candidate/replications.csv")
    let baseline = try ReplicationTable.parse(
      try TestFiles.read(Repository.path("Scenarios/regression/baseline.csv")),
      path: "Scenarios/regression/baseline.csv")
    let comparison = try Comparison(baseline: baseline, candidate: candidate, gates: Gate.defaults)
    let printed =
      ComparisonReport.text(comparison) + "compare.csv: Reports/regression-candidate/compare.csv\n"
      + ComparisonReport.verdict(comparison) + "\n"
    #expect(printed == expected)
    #expect(!comparison.failures.isEmpty, "docs/gates.md says the example fails")
  }

  @Test("the stored baseline is what baseline.yaml produces today")
  func storedBaselineIsCurrent() throws {
    let run = try runTable("Scenarios/regression/baseline.yaml")
    #expect(
      try TestFiles.read(run.path) == TestFiles.read(Repository.path("Scenarios/regression/baseline.csv")),
      "refresh it with the commands at the top of Scenarios/regression/baseline.yaml")
  }
}
