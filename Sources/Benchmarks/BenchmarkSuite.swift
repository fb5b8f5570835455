import SimulationEngine

/// The fixed suite `widgetsim bench` runs. It grows with the simulator (model, fleet, sweep figures).
public struct BenchmarkSuite: Sendable {
  /// Repetitions of every measurement; results report the median.
  public var repetitions: Int
  /// Holds per repetition of each hold-model size.
  public var holds: Int
  /// Draws per repetition of each distribution and generator.
  public var draws: Int
  /// Model events per repetition of the model benchmark (rounded up to whole replications).
  public var modelEvents: Int
  /// Simulated days of the `model_events` scenario files; `nil` runs each file's own days.
  public var scenarioDays: Int?
  /// Devices of the fleet benchmark; `nil` runs the fleet scenario's own count.
  public var fleetDevices: Int?
  /// Tasks of the sweep benchmark (spread over the grid); `nil` runs every task of the sweep.
  public var sweepTasks: Int?

  /// The standard suite: figures stable to a few percent on a quiet machine.
  public static let standard = BenchmarkSuite(
    repetitions: 5, holds: 2_000_000, draws: 2_000_000, modelEvents: 5_000_000)
  /// A fast smoke run (CI, tests): same benchmarks, small counts, figures only indicative.
  public static let quick = BenchmarkSuite(
    repetitions: 3, holds: 50_000, draws: 50_000, modelEvents: 10_000, scenarioDays: 2, fleetDevices: 4,
    sweepTasks: 3)

  public init(
    repetitions: Int, holds: Int, draws: Int, modelEvents: Int, scenarioDays: Int? = nil, fleetDevices: Int? = nil,
    sweepTasks: Int? = nil
  ) {
    precondition(repetitions > 0 && holds > 0 && draws > 0 && modelEvents > 0, "benchmark counts must be positive")
    precondition(
      (scenarioDays ?? 1) > 0 && (fleetDevices ?? 1) > 0 && (sweepTasks ?? 1) > 0, "benchmark counts must be positive")
    self.scenarioDays = scenarioDays
    self.fleetDevices = fleetDevices
    self.sweepTasks = sweepTasks
    self.modelEvents = modelEvents
    self.repetitions = repetitions
    self.holds = holds
    self.draws = draws
  }

  /// Whether this code was compiled with optimisation; figures from a debug build mean little.
  public static var isOptimizedBuild: Bool {
    #if DEBUG
      false
    #else
      true
    #endif
  }

  /// The benchmark names, in the order they run.
  public static let names = [
    "event_set_hold", "generator_uniform", "model_events", "distribution_draw", "fleet_devices", "sweep_points",
  ]
  /// The benchmarks that run scenario files (`BenchmarkScenarios`).
  public static let scenarioNames: Set<String> = ["model_events", "fleet_devices", "sweep_points"]

  /// Runs every benchmark (or those named in `only`), `repetitions` times each, one benchmark at a time.
  /// The scenario benchmarks run the files in `scenarios`; without them, only the built-in model row runs.
  public func run(only: Set<String>? = nil, scenarios: BenchmarkScenarios? = nil) -> [BenchmarkResult] {
    var results: [BenchmarkResult] = []
    func wanted(_ name: String) -> Bool { only?.contains(name) ?? true }
    for size in HoldModelBenchmark.sizes where wanted("event_set_hold") {
      let samples = (0..<repetitions).map { repetition in
        HoldModelBenchmark.nanosecondsPerHold(size: size, holds: holds, seed: UInt64(repetition + 1))
      }
      results.append(
        BenchmarkResult(benchmark: "event_set_hold", parameter: "\(size)", unit: "ns_per_hold", samples: samples))
    }
    for kind in RandomGeneratorKind.allCases where wanted("generator_uniform") {
      let samples = (0..<repetitions).map { repetition in
        DistributionBenchmark.nanosecondsPerUniform(kind, draws: draws, seed: UInt64(repetition + 1))
      }
      results.append(
        BenchmarkResult(benchmark: "generator_uniform", parameter: kind.rawValue, unit: "ns_per_draw", samples: samples)
      )
    }
    if wanted("model_events") {
      let modelSamples = (0..<repetitions).map { repetition in
        ModelBenchmark.eventsPerSecond(events: modelEvents, seed: UInt64(repetition + 1)) / 1e6
      }
      results.append(
        BenchmarkResult(
          benchmark: "model_events", parameter: "bench-model", unit: "million_events_per_s", samples: modelSamples))
      for var scenario in scenarios?.models ?? [] {
        if let scenarioDays { scenario.days = scenarioDays }
        let samples = (0..<repetitions).map { repetition in
          ModelBenchmark.eventsPerSecond(events: modelEvents, seed: UInt64(repetition + 1), scenario: scenario) / 1e6
        }
        results.append(
          BenchmarkResult(
            benchmark: "model_events", parameter: scenario.name, unit: "million_events_per_s", samples: samples))
      }
    }
    for (name, distribution) in DistributionBenchmark.catalog() where wanted("distribution_draw") {
      let samples = (0..<repetitions).map { repetition in
        DistributionBenchmark.nanosecondsPerDraw(distribution, draws: draws, seed: UInt64(repetition + 1))
      }
      results.append(
        BenchmarkResult(benchmark: "distribution_draw", parameter: name, unit: "ns_per_draw", samples: samples))
    }
    if let fleet = scenarios?.fleet, wanted("fleet_devices") {
      let samples = (0..<repetitions).map { repetition in
        FleetBenchmark.devicesPerSecond(scenario: fleet, devices: fleetDevices, seed: UInt64(repetition + 1))
      }
      results.append(
        BenchmarkResult(benchmark: "fleet_devices", parameter: fleet.name, unit: "devices_per_s", samples: samples))
    }
    if let sweep = scenarios?.sweep, wanted("sweep_points") {
      let samples = (0..<repetitions).map { _ in SweepBenchmark.pointsPerSecond(plan: sweep, limit: sweepTasks) }
      results.append(
        BenchmarkResult(
          benchmark: "sweep_points", parameter: sweep.configurations[0].name, unit: "points_per_s", samples: samples))
    }
    return results
  }
}
