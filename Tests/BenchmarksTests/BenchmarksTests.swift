import TestSupport
import Testing

@testable import Benchmarks

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Serialized: the benchmarks write scratch folders and read the machine's clock; the tests check what each left.
@Suite("Benchmarks", .serialized)
struct BenchmarksTests {
  @Test("a smoke run yields one positive, finite figure per benchmark and parameter")
  func smokeRun() throws {
    let suite = BenchmarkSuite(
      repetitions: 2, holds: 2_000, draws: 2_000, modelEvents: 2_000, fleetDevices: 2, sweepTasks: 2,
      replicationCount: 3)
    // Tests run from the package root, where the default scenario directory is.
    let scenarios = try BenchmarkScenarios.load(directory: BenchmarkScenarios.defaultDirectory)
    let results = suite.run(scenarios: scenarios)
    let modelRows = 1 + BenchmarkScenarios.modelFiles.count
    // Hold sizes, 3 generators, the model rows, as many device-days rows, the draws, fleet (counted and
    // sampled), the sample estimate's two sizes, sweep, the selection's two, the two replication-cost phones,
    // the report-writing one and the two calibrations' (lines, and a fleet's phones).
    let expectedCount =
      HoldModelBenchmark.sizes.count + 3 + 2 * modelRows + DistributionBenchmark.catalog().count + 5 + 2 + 2 + 1 + 2
    #expect(results.count == expectedCount)
    // Two devices for the fleet: a log of 1,000 phones, ten lines each.
    #expect(results.filter { $0.benchmark == "calibrate_phones" }.map(\.parameter) == ["1000_phones_10_lines"])
    #expect(
      results.filter { $0.benchmark == "model_events" }.map(\.parameter) == [
        "bench-model", "light", "typical", "push-heavy", "polling",
      ])
    #expect(
      results.filter { $0.benchmark == "model_device_days" }.map(\.parameter)
        == ["bench-model", "light", "typical", "push-heavy", "polling"]
        && results.contains { $0.benchmark == "model_device_days" && $0.unit == "device_days_per_s" })
    #expect(
      results.filter { $0.benchmark == "fleet_devices" && $0.unit == "devices_per_s" }.map(\.parameter) == [
        "fleet-200x7d", "fleet-200x7d-sampled",
      ])
    #expect(
      results.filter { $0.benchmark == "sample_estimate" && $0.unit == "percent_of_run" }.map(\.parameter) == [
        "2-devices", "20-devices",
      ])
    #expect(results.contains { $0.benchmark == "sweep_points" && $0.unit == "points_per_s" })
    #expect(
      results.filter { $0.benchmark == "selection_arithmetic" }.map(\.parameter) == ["7-designs", "rinott-h"])
    #expect(
      results.filter { $0.benchmark == "replication_cost" }.map(\.parameter) == ["light", "polling"]
        && results.contains { $0.benchmark == "replication_cost" && $0.unit == "ratio_to_devices" })
    #expect(
      results.filter { $0.benchmark == "report_writing" }.map(\.parameter) == ["polling"]
        && results.contains { $0.benchmark == "report_writing" && $0.unit == "rows_per_s" && $0.median > 1_000 })
    #expect(Set(results.map(\.benchmark)) == Set(BenchmarkSuite.names))
    for result in results {
      #expect(result.samples.count == 2)
      // A share of a tiny run is a difference of timings of a few milliseconds: on a loaded machine it can land
      // anywhere, below -100% too (an estimate timed longer than the whole run); it must be a number. Every
      // other figure is positive.
      let least = result.unit == "percent_of_run" ? -Double.infinity : 0
      #expect(result.samples.allSatisfy { $0.isFinite && $0 > least }, "\(result.benchmark) \(result.parameter)")
    }
    #expect(Set(results.map { "\($0.benchmark)/\($0.parameter)" }).count == results.count)
  }

  @Test("the replication-cost benchmark runs both runs through `run` and leaves no scratch folder")
  func replicationCost() throws {
    let scenarios = try BenchmarkScenarios.load(directory: BenchmarkScenarios.defaultDirectory)
    let light = try #require(scenarios.models.first { $0.name == "light" })
    let ratio = ReplicationCostBenchmark.ratio(scenario: light, count: 2, seed: 1)
    #expect(ratio.isFinite && ratio > 0)
    let scratch = "\(ReplicationCostBenchmark.scratchRoot)/widgetsim-bench-\(getpid())"
    #expect(access(scratch, F_OK) != 0, "\(scratch) was left behind")
  }

  @Test("the report-writing benchmark counts the rows of every report it wrote and leaves no scratch folder")
  func reportWriting() throws {
    let scenarios = try BenchmarkScenarios.load(directory: BenchmarkScenarios.defaultDirectory)
    let polling = try #require(scenarios.models.first { $0.name == "polling" })
    let rate = ReportWritingBenchmark.rowsPerSecond(scenario: polling, seed: 1)
    #expect(rate.isFinite && rate > 1_000)
    // The suite is serialized: no other run of the benchmark in this process has a folder now.
    let root = ReplicationCostBenchmark.scratchRoot
    let left = try TestFiles.list(root).filter { $0.hasPrefix(ReportWritingBenchmark.scratchPrefix) }
    #expect(left.isEmpty, "\(left) left under \(root)")
    // Two folders made at once are two folders (runs at the same time never share one).
    let first = ReportWritingBenchmark.scratchFolder()
    let second = ReportWritingBenchmark.scratchFolder()
    #expect(first != second)
    rmdir(first)
    rmdir(second)
  }

  @Test("--only runs just the named benchmarks")
  func only() {
    let suite = BenchmarkSuite(repetitions: 1, holds: 1_000, draws: 1_000, modelEvents: 1_000)
    #expect(Set(suite.run(only: ["model_events"]).map(\.benchmark)) == ["model_events"])
    #expect(suite.run(only: ["event_set_hold"]).count == HoldModelBenchmark.sizes.count)
  }

  @Test("a missing scenario directory is an error naming it")
  func missingScenarioDirectory() {
    #expect {
      try BenchmarkScenarios.load(directory: "Scenarios/no-such-bench")
    } throws: { error in
      "\(error)".contains("'Scenarios/no-such-bench' not found")
    }
  }

  @Test("the sweep benchmark spreads a task limit over the whole grid")
  func sweepTaskSpread() throws {
    let plan = try BenchmarkScenarios.load(directory: BenchmarkScenarios.defaultDirectory).sweep
    #expect(SweepBenchmark.tasks(of: plan, limit: nil) == Array(0..<plan.tasks.count))
    #expect(SweepBenchmark.tasks(of: plan, limit: 3) == [0, plan.tasks.count / 3, 2 * plan.tasks.count / 3])
    #expect(SweepBenchmark.tasks(of: plan, limit: 10_000).count == plan.tasks.count)
  }

  @Test("CSV has the documented header and one row per result")
  func csv() {
    let results = [
      BenchmarkResult(benchmark: "event_set_hold", parameter: "256", unit: "ns_per_hold", samples: [31, 29.004, 30]),
      BenchmarkResult(
        benchmark: "distribution_draw", parameter: "exponential", unit: "ns_per_draw", samples: [14.25, 15.5]),
    ]
    #expect(
      BenchmarkTable.csv(results)
        == "benchmark,parameter,value,unit\nevent_set_hold,256,30.00,ns_per_hold\ndistribution_draw,exponential,14.88,ns_per_draw\n"
    )
    let table = BenchmarkTable.text(results)
    #expect(table.contains("29.00") && table.contains("31.00"))
  }

  @Test("median, minimum and maximum of repetitions")
  func summary() {
    let result = BenchmarkResult(benchmark: "b", parameter: "p", unit: "u", samples: [5, 1, 9, 3])
    #expect(result.median == 4)
    #expect(result.minimum == 1)
    #expect(result.maximum == 9)
  }
}
