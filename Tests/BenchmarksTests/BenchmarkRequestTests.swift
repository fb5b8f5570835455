import Reports
import TestSupport
import Testing

@testable import Benchmarks

/// `widgetsim bench` as its options ask for it, without the command line.
@Suite("A bench request")
struct BenchmarkRequestTests {
  @Test("problem: --repetitions, each output file, --only, --tolerance, in the command line's words")
  func problems() {
    #expect(BenchmarkRequest().problem() == nil)
    #expect(BenchmarkRequest(repetitions: 0).problem() == "--repetitions must be at least 1, got 0")
    #expect(BenchmarkRequest(out: "dir/").problem() == "--out names the CSV file to write, got 'dir/'")
    #expect(BenchmarkRequest(jsonSmaller: "").problem() == "--json-smaller names the JSON file to write, got ''")
    #expect(BenchmarkRequest(only: ["nothing"]).problem()?.hasPrefix("--only nothing: no such benchmark") == true)
    #expect(BenchmarkRequest(tolerance: "ten").problem() != nil)
  }

  @Test("the session: the quick or standard suite with --repetitions, --only as a set, the tolerance read")
  func session() throws {
    let standard = try BenchmarkRequest().session()
    #expect(standard.suite.repetitions == BenchmarkSuite.standard.repetitions && standard.only == nil)
    #expect(standard.tolerance == BenchmarkTolerance(fraction: 0.1))
    let quick = try BenchmarkRequest(
      format: .csv, repetitions: 2, quick: true, only: ["sweep_points"], tolerance: "0.25", statistic: .best
    ).session()
    #expect(quick.suite.repetitions == 2 && quick.suite.holds == BenchmarkSuite.quick.holds)
    #expect(quick.only == ["sweep_points"] && quick.format == .csv && quick.statistic == .best)
    #expect(quick.tolerance == BenchmarkTolerance(fraction: 0.25))
    #expect(throws: BenchmarkToleranceError.self) { try BenchmarkRequest(tolerance: "ten").session() }
  }
}
