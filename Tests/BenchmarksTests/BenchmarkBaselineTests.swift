import Testing

@testable import Benchmarks

@Suite("Benchmark baseline gate")
struct BenchmarkBaselineTests {
  static let tenPercent = BenchmarkTolerance(fraction: 0.1)

  static func result(_ benchmark: String, _ parameter: String, _ unit: String, _ samples: [Double])
    -> BenchmarkResult
  {
    BenchmarkResult(benchmark: benchmark, parameter: parameter, unit: unit, samples: samples)
  }

  static func baseline(_ text: String) throws -> [BenchmarkBaselineRow] {
    try BenchmarkBaseline.parse(text: text, file: "base.csv")
  }

  @Test("a row 20% slower than its baseline at 10% tolerance is a regression, and the gate exits 1")
  func twentyPercentSlowerRegresses() throws {
    let stored = try Self.baseline("benchmark,parameter,value,unit\nevent_set_hold,256,30.00,ns_per_hold\n")
    let comparison = BenchmarkComparison(
      results: [Self.result("event_set_hold", "256", "ns_per_hold", [35, 36, 37])], baseline: stored,
      tolerance: Self.tenPercent)
    #expect(comparison.rows.count == 1)
    #expect(abs(comparison.rows[0].change - 0.2) < 1e-12)
    #expect(comparison.rows[0].verdict == .regression)
    #expect(comparison.hasRegression)
    #expect(comparison.exitStatus == 1)
    #expect(comparison.text().contains("REGRESSION"))
    #expect(comparison.text().contains("+20.00%"))
  }

  @Test("--statistic best compares the best repetition: least time, highest rate")
  func bestRepetition() throws {
    let stored = try Self.baseline(
      "benchmark,parameter,value,unit\nevent_set_hold,256,30.00,ns_per_hold\nmodel_events,typical,5.00,million_events_per_s\n"
    )
    // Medians 40 ns (+33%) and 3.5 M/s (-30%): regressions; best repetitions 31 ns and 5.2 M/s: within 10%.
    let results = [
      Self.result("event_set_hold", "256", "ns_per_hold", [45, 31, 40]),
      Self.result("model_events", "typical", "million_events_per_s", [3.5, 5.2, 3.1]),
    ]
    let median = BenchmarkComparison(results: results, baseline: stored, tolerance: Self.tenPercent)
    #expect(median.rows.map(\.verdict) == [.regression, .regression])
    let best = BenchmarkComparison(results: results, baseline: stored, tolerance: Self.tenPercent, statistic: .best)
    #expect(best.rows.map(\.verdict) == [.ok, .ok])
    #expect(abs(best.rows[0].change - (31.0 / 30 - 1)) < 1e-12)
    #expect(abs(best.rows[1].change - (5.2 / 5 - 1)) < 1e-12)
    // A real regression shows in the best repetition too.
    let slower = [Self.result("event_set_hold", "256", "ns_per_hold", [40, 36, 38])]
    #expect(
      BenchmarkComparison(results: slower, baseline: stored, tolerance: Self.tenPercent, statistic: .best).rows[0]
        .verdict == .regression)
  }

  @Test("a rate 20% lower than its baseline is a regression too")
  func slowerRateRegresses() throws {
    let stored = try Self.baseline("benchmark,parameter,value,unit\nmodel_events,typical,5.00,million_events_per_s\n")
    let comparison = BenchmarkComparison(
      results: [Self.result("model_events", "typical", "million_events_per_s", [4.0])], baseline: stored,
      tolerance: Self.tenPercent)
    #expect(comparison.rows[0].verdict == .regression)
    #expect(comparison.exitStatus == 1)
  }

  @Test("within the tolerance either way is ok, and the gate exits 0")
  func withinToleranceIsOk() throws {
    let stored = try Self.baseline(
      "benchmark,parameter,value,unit\nevent_set_hold,256,100,ns_per_hold\nfleet_devices,f,100,devices_per_s\n")
    let comparison = BenchmarkComparison(
      results: [
        Self.result("event_set_hold", "256", "ns_per_hold", [110]),
        Self.result("fleet_devices", "f", "devices_per_s", [91]),
      ], baseline: stored, tolerance: Self.tenPercent)
    #expect(comparison.rows.map(\.verdict) == [.ok, .ok])
    #expect(!comparison.hasRegression)
    #expect(comparison.exitStatus == 0)
  }

  @Test("a faster figure beyond the tolerance is an improvement, not a failure")
  func improvementIsOk() throws {
    let stored = try Self.baseline(
      "benchmark,parameter,value,unit\nevent_set_hold,256,100,ns_per_hold\nsweep_points,s,100,points_per_s\n")
    let comparison = BenchmarkComparison(
      results: [
        Self.result("event_set_hold", "256", "ns_per_hold", [70]),
        Self.result("sweep_points", "s", "points_per_s", [150]),
      ], baseline: stored, tolerance: Self.tenPercent)
    #expect(comparison.rows.map(\.verdict) == [.improved, .improved])
    #expect(comparison.exitStatus == 0)
  }

  @Test("the direction comes from the unit: ns_per_* lower is better, *_per_s higher is better")
  func directionByUnit() {
    #expect(BenchmarkDirection(unit: "ns_per_hold") == .lowerIsBetter)
    #expect(BenchmarkDirection(unit: "ns_per_draw") == .lowerIsBetter)
    #expect(BenchmarkDirection(unit: "million_events_per_s") == .higherIsBetter)
    #expect(BenchmarkDirection(unit: "devices_per_s") == .higherIsBetter)
    #expect(BenchmarkDirection(unit: "points_per_s") == .higherIsBetter)
    #expect(BenchmarkDirection(unit: "ratio_to_devices") == .lowerIsBetter)
    #expect(BenchmarkDirection(unit: "percent_of_run") == nil)
    #expect(BenchmarkDirection(unit: "bytes") == nil)
    // The same +20% change is a regression for a time and an improvement for a rate.
    #expect(
      BenchmarkComparison.verdict(
        change: 0.2, unit: "ns_per_draw", baselineUnit: "ns_per_draw", tolerance: Self.tenPercent) == .regression)
    #expect(
      BenchmarkComparison.verdict(
        change: 0.2, unit: "points_per_s", baselineUnit: "points_per_s", tolerance: Self.tenPercent) == .improved)
    if case .incomparable = BenchmarkComparison.verdict(
      change: 0.5, unit: "bytes", baselineUnit: "bytes", tolerance: Self.tenPercent)
    {
    } else {
      Issue.record("a unit with no direction is not compared")
    }
    if case .incomparable = BenchmarkComparison.verdict(
      change: 0.5, unit: "ns_per_draw", baselineUnit: "ns_per_hold", tolerance: Self.tenPercent)
    {
    } else {
      Issue.record("a changed unit is not compared")
    }
  }

  @Test("rows on one side only are notes, not failures")
  func missingRowsAreNotes() throws {
    let stored = try Self.baseline(
      "benchmark,parameter,value,unit\nevent_set_hold,256,100,ns_per_hold\nold_bench,x,1,ns_per_op\n")
    let comparison = BenchmarkComparison(
      results: [
        Self.result("event_set_hold", "256", "ns_per_hold", [100]),
        Self.result("fleet_devices", "f", "devices_per_s", [1]),
      ], baseline: stored, tolerance: Self.tenPercent)
    #expect(comparison.rows.count == 1)
    #expect(comparison.missingFromBaseline == ["fleet_devices f"])
    #expect(comparison.missingFromRun == ["old_bench x (line 3)"])
    #expect(comparison.exitStatus == 0)
    #expect(comparison.text().contains("note: in the baseline but not run: old_bench x (line 3)"))
  }

  @Test("the baseline reads the CSV the bench writes, blank lines and CRLF included")
  func parsesBenchCSV() throws {
    let results = [
      Self.result("event_set_hold", "256", "ns_per_hold", [31, 29.004, 30]),
      Self.result("model_events", "typical", "million_events_per_s", [4.5]),
    ]
    let rows = try Self.baseline(BenchmarkTable.csv(results))
    #expect(
      rows == [
        BenchmarkBaselineRow(benchmark: "event_set_hold", parameter: "256", value: 30, unit: "ns_per_hold", line: 2),
        BenchmarkBaselineRow(
          benchmark: "model_events", parameter: "typical", value: 4.5, unit: "million_events_per_s", line: 3),
      ])
    let crlf = try Self.baseline("benchmark,parameter,value,unit\r\n\r\nevent_set_hold,16,20.5,ns_per_hold\r\n")
    #expect(crlf.map(\.value) == [20.5])
    #expect(crlf.map(\.line) == [3])
  }

  @Test(
    "a malformed baseline is an error naming the file and line",
    arguments: [
      ("benchmark,parameter,value,unit\nevent_set_hold,256,abc,ns_per_hold\n", 2, "value 'abc'"),
      ("benchmark,parameter,value,unit\nevent_set_hold,256,30\n", 2, "expected 4 fields"),
      ("benchmark,parameter,value,unit\na,b,1,ns_per_x\n\na,b,2,ns_per_x\n", 4, "duplicate row"),
      ("benchmark,parameter,value,unit\nevent_set_hold,256,-3,ns_per_hold\n", 2, "not a positive number"),
      ("bench,param,value\nevent_set_hold,256,30,ns_per_hold\n", 1, "expected the header"),
      ("benchmark,parameter,value,unit\n,256,30,ns_per_hold\n", 2, "empty benchmark"),
    ])
  func malformedBaseline(text: String, line: Int, message: String) {
    #expect {
      try BenchmarkBaseline.parse(text: text, file: "base.csv")
    } throws: { error in
      guard let error = error as? BenchmarkBaselineError else { return false }
      return error.file == "base.csv" && error.line == line && error.message.contains(message)
        && "\(error)".hasPrefix("base.csv:\(line): ")
    }
  }

  @Test("an empty or missing baseline file is an error naming the file")
  func emptyOrMissingBaseline() {
    #expect(
      throws: BenchmarkBaselineError(
        file: "e.csv", line: nil, message: "empty file: expected the header 'benchmark,parameter,value,unit'")
    ) {
      try BenchmarkBaseline.parse(text: "\n", file: "e.csv")
    }
    #expect {
      try BenchmarkBaseline.load(path: "/nonexistent/bench.csv")
    } throws: { error in
      "\(error)".hasPrefix("/nonexistent/bench.csv: cannot open")
    }
  }

  @Test(
    "tolerance accepts a percentage or a fraction",
    arguments: [("10%", 0.1), ("0.1", 0.1), ("2.5%", 0.025), ("0", 0), (" 15 %", 0.15), ("1", 1.0)])
  func toleranceParsing(text: String, fraction: Double) throws {
    #expect(abs(try BenchmarkTolerance(parsing: text).fraction - fraction) < 1e-12)
  }

  @Test(
    "tolerance rejects what is not a non-negative percentage or fraction",
    arguments: ["", "ten", "-5%", "10", "%", "nan", "inf%"])
  func badTolerance(text: String) {
    #expect(throws: BenchmarkToleranceError.self) { try BenchmarkTolerance(parsing: text) }
  }

  @Test("a change of exactly the tolerance is ok")
  func exactlyAtTolerance() {
    let verdict = BenchmarkComparison.verdict(
      change: (110.0 - 100.0) / 100.0, unit: "ns_per_hold", baselineUnit: "ns_per_hold", tolerance: Self.tenPercent)
    #expect(verdict == .ok)
  }
}
