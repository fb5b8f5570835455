import CommandSupport
import Reports
import SimulationEngine
import Sweeps
import WidgetModel

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
  /// Simulated days of the model scenario files (`model_events`, `model_device_days`); `nil` runs each file's
  /// own days.
  public var scenarioDays: Int?
  /// Devices of the fleet benchmark; `nil` runs the fleet scenario's own count.
  public var fleetDevices: Int?
  /// Tasks of the sweep benchmark (spread over the grid); `nil` runs every task of the sweep.
  public var sweepTasks: Int?
  /// N of the replication-cost benchmark: N replications of a phone against N devices.
  public var replicationCount: Int
  /// Phones in the log `calibrate_phones` generates (`--quick`: 500 a fleet device, 2,000).
  public var calibrationPhones = 1_000_000

  /// The standard suite: figures stable to a few percent on a quiet machine.
  public static let standard = BenchmarkSuite(
    repetitions: 5, holds: 2_000_000, draws: 2_000_000, modelEvents: 5_000_000)
  /// A fast smoke run (CI, tests): same benchmarks, small counts, figures only indicative.
  public static let quick = BenchmarkSuite(
    repetitions: 3, holds: 50_000, draws: 50_000, modelEvents: 10_000, scenarioDays: 2, fleetDevices: 4,
    sweepTasks: 3, replicationCount: ReplicationCostBenchmark.quickCount)

  public init(
    repetitions: Int, holds: Int, draws: Int, modelEvents: Int, scenarioDays: Int? = nil, fleetDevices: Int? = nil,
    sweepTasks: Int? = nil, replicationCount: Int = ReplicationCostBenchmark.standardCount
  ) {
    precondition(
      repetitions > 0 && holds > 0 && draws > 0 && modelEvents > 0 && replicationCount > 0,
      "benchmark counts must be positive")
    self.replicationCount = replicationCount
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
    "event_set_hold", "generator_uniform", "model_events", "model_device_days", "distribution_draw", "fleet_devices",
    "sample_estimate", "sweep_points", "selection_arithmetic", "replication_cost", "report_writing",
    "calibrate_lines", "calibrate_phones",
  ]
  /// The benchmarks that run scenario files (`BenchmarkScenarios`).
  public static let scenarioNames: Set<String> = [
    "model_events", "model_device_days", "fleet_devices", "sample_estimate", "sweep_points", "replication_cost",
    "report_writing", "calibrate_lines", "calibrate_phones",
  ]
  /// The model scenarios `replication_cost` runs: the lightest phone and the polling one (a replication's own
  /// cost shows most beside a light phone's).
  public static let replicationCostScenarios = ["light", "polling"]
  /// The model scenario whose run's reports `report_writing` writes (four widgets: every report has rows).
  public static let reportWritingScenarios = ["polling"]

  /// One row of the suite: what it measures and how to take one sample (repetition number -> figure).
  struct Measurement {
    let benchmark: String
    let parameter: String
    let unit: String
    let sample: (Int) -> Double
  }

  /// Runs every benchmark (or those named in `only`), `repetitions` times each. Repetitions are interleaved:
  /// round r takes one sample of every row, so a slow spell of a shared machine lands on one sample of many
  /// rows (which the medians shrug off) rather than on every sample of one row.
  /// The scenario benchmarks run the files in `scenarios`; without them, only the built-in model's rows run.
  public func run(only: Set<String>? = nil, scenarios: BenchmarkScenarios? = nil) -> [BenchmarkResult] {
    let rows = measurements(only: only, scenarios: scenarios)
    var samples = [[Double]](repeating: [], count: rows.count)
    for repetition in 0..<repetitions {
      for (index, row) in rows.enumerated() { samples[index].append(row.sample(repetition)) }
    }
    return zip(rows, samples).map { row, values in
      BenchmarkResult(benchmark: row.benchmark, parameter: row.parameter, unit: row.unit, samples: values)
    }
  }

  /// The suite's rows, in report order.
  func measurements(only: Set<String>?, scenarios: BenchmarkScenarios?) -> [Measurement] {
    func wanted(_ name: String) -> Bool { only?.contains(name) ?? true }
    var rows: [Measurement] = []
    if wanted("event_set_hold") { rows += holdMeasurements() }
    if wanted("generator_uniform") { rows += generatorMeasurements() }
    if wanted("model_events") { rows += modelEventMeasurements(scenarios) }
    if wanted("model_device_days") { rows += deviceDayMeasurements(scenarios) }
    if wanted("distribution_draw") { rows += distributionMeasurements() }
    if let fleet = scenarios?.fleet, wanted("fleet_devices") { rows += fleetMeasurements(fleet) }
    if let fleet = scenarios?.fleet, wanted("sample_estimate") { rows += sampleEstimateMeasurements(fleet) }
    if let sweep = scenarios?.sweep, wanted("sweep_points") { rows.append(sweepMeasurement(sweep)) }
    if wanted("selection_arithmetic") { rows += selectionMeasurements() }
    if wanted("replication_cost") { rows += replicationCostMeasurements(scenarios) }
    return rows + outputMeasurements(only: only, scenarios: scenarios)
  }

  /// `event_set_hold`: the event set's hold model at each of its sizes.
  func holdMeasurements() -> [Measurement] {
    let holds = self.holds
    return HoldModelBenchmark.sizes.map { size in
      Measurement(benchmark: "event_set_hold", parameter: "\(size)", unit: "ns_per_hold") { repetition in
        HoldModelBenchmark.nanosecondsPerHold(size: size, holds: holds, seed: UInt64(repetition + 1))
      }
    }
  }

  /// `generator_uniform`: a uniform draw from each random generator.
  func generatorMeasurements() -> [Measurement] {
    let draws = self.draws
    return RandomGeneratorKind.allCases.map { kind in
      Measurement(benchmark: "generator_uniform", parameter: kind.rawValue, unit: "ns_per_draw") { repetition in
        DistributionBenchmark.nanosecondsPerUniform(kind, draws: draws, seed: UInt64(repetition + 1))
      }
    }
  }

  /// The model scenario files as the model benchmarks run them: over ``scenarioDays`` when it is set.
  func modelScenarios(_ scenarios: BenchmarkScenarios?) -> [ScenarioConfiguration] {
    (scenarios?.models ?? []).map { model in
      var scenario = model
      if let scenarioDays { scenario.days = scenarioDays }
      return scenario
    }
  }

  /// `model_events`: the built-in model, then every model scenario file.
  func modelEventMeasurements(_ scenarios: BenchmarkScenarios?) -> [Measurement] {
    let modelEvents = self.modelEvents
    var rows = [
      Measurement(benchmark: "model_events", parameter: "bench-model", unit: "million_events_per_s") { repetition in
        ModelBenchmark.eventsPerSecond(events: modelEvents, seed: UInt64(repetition + 1)) / 1e6
      }
    ]
    for configuration in modelScenarios(scenarios) {
      rows.append(
        Measurement(benchmark: "model_events", parameter: configuration.name, unit: "million_events_per_s") {
          repetition in
          ModelBenchmark.eventsPerSecond(events: modelEvents, seed: UInt64(repetition + 1), scenario: configuration)
            / 1e6
        })
    }
    return rows
  }

  /// `model_device_days`: device-days per second for every model scenario: the figure users feel, which stays
  /// comparable when the model stops simulating events nobody sees (events per second would then fall as it
  /// gets faster).
  func deviceDayMeasurements(_ scenarios: BenchmarkScenarios?) -> [Measurement] {
    let modelEvents = self.modelEvents
    return ([ModelBenchmark.configuration] + modelScenarios(scenarios)).map { configuration in
      // About as many simulated days as model events the suite asks for, at up to 700 events a day (fewer
      // where views nobody sees are not simulated: then fewer events, as many days).
      let days = Swift.max(configuration.days, modelEvents / 700)
      return Measurement(benchmark: "model_device_days", parameter: configuration.name, unit: "device_days_per_s") {
        repetition in
        ModelBenchmark.deviceDaysPerSecond(days: days, seed: UInt64(repetition + 1), scenario: configuration)
      }
    }
  }

  /// `distribution_draw`: one draw from each distribution of the catalogue.
  func distributionMeasurements() -> [Measurement] {
    let draws = self.draws
    return DistributionBenchmark.catalog().map { name, distribution in
      Measurement(benchmark: "distribution_draw", parameter: name, unit: "ns_per_draw") { repetition in
        DistributionBenchmark.nanosecondsPerDraw(distribution, draws: draws, seed: UInt64(repetition + 1))
      }
    }
  }

  /// `fleet_devices`: the fleet scenario, then the same fleet standing for 100 times as many phones: its
  /// per-second figures are then estimated from the sample, and the ratio of the two rows is what the
  /// estimate costs.
  func fleetMeasurements(_ fleet: ScenarioConfiguration) -> [Measurement] {
    let devices = fleetDevices
    var sampled = fleet
    sampled.fleet.represents = Double(devices ?? fleet.fleet.devices) * 100
    return [
      Measurement(benchmark: "fleet_devices", parameter: fleet.name, unit: "devices_per_s") { repetition in
        FleetBenchmark.devicesPerSecond(scenario: fleet, devices: devices, seed: UInt64(repetition + 1))
      },
      Measurement(benchmark: "fleet_devices", parameter: fleet.name + "-sampled", unit: "devices_per_s") {
        repetition in
        FleetBenchmark.devicesPerSecond(scenario: sampled, devices: devices, seed: UInt64(repetition + 1))
      },
    ]
  }

  /// `sample_estimate`: the fleet's own sample and one ten times larger: the estimate's cost does not grow
  /// with the devices.
  func sampleEstimateMeasurements(_ fleet: ScenarioConfiguration) -> [Measurement] {
    let devices = fleetDevices ?? fleet.fleet.devices
    return [devices, 10 * devices].map { count in
      Measurement(benchmark: "sample_estimate", parameter: "\(count)-devices", unit: "percent_of_run") {
        repetition in
        SampleEstimateBenchmark.percentOfRun(scenario: fleet, devices: count, seed: UInt64(repetition + 1))
      }
    }
  }

  /// `sweep_points`: the sweep, over at most ``sweepTasks`` of its tasks.
  func sweepMeasurement(_ sweep: SweepPlan) -> Measurement {
    let limit = sweepTasks
    return Measurement(benchmark: "sweep_points", parameter: sweep.configurations[0].name, unit: "points_per_s") {
      _ in
      SweepBenchmark.pointsPerSecond(plan: sweep, limit: limit)
    }
  }

  /// `selection_arithmetic`: the sequential selection's decisions per observation, and Rinott's h.
  func selectionMeasurements() -> [Measurement] {
    [
      Measurement(benchmark: "selection_arithmetic", parameter: "7-designs", unit: "ns_per_observation") {
        repetition in
        SelectionBenchmark.nanosecondsPerObservation(seed: UInt64(repetition + 1))
      },
      Measurement(benchmark: "selection_arithmetic", parameter: "rinott-h", unit: "ns_per_constant") { _ in
        SelectionBenchmark.nanosecondsPerRinottConstant(firstStage: 10)
      },
    ]
  }

  /// `replication_cost`: the model scenarios named in ``replicationCostScenarios``, in file order.
  func replicationCostMeasurements(_ scenarios: BenchmarkScenarios?) -> [Measurement] {
    let count = replicationCount
    return (scenarios?.models ?? []).filter { BenchmarkSuite.replicationCostScenarios.contains($0.name) }.map {
      scenario in
      Measurement(benchmark: "replication_cost", parameter: scenario.name, unit: "ratio_to_devices") { repetition in
        ReplicationCostBenchmark.ratio(scenario: scenario, count: count, seed: UInt64(repetition + 1))
      }
    }
  }

  /// The rows of what comes after a run: writing its reports, calibrating from a field log.
  func outputMeasurements(only: Set<String>?, scenarios: BenchmarkScenarios?) -> [Measurement] {
    var rows: [Measurement] = []
    func wanted(_ name: String) -> Bool { only?.contains(name) ?? true }
    for scenario in scenarios?.models ?? []
    where wanted("report_writing") && BenchmarkSuite.reportWritingScenarios.contains(scenario.name) {
      rows.append(
        Measurement(benchmark: "report_writing", parameter: scenario.name, unit: "rows_per_s") { repetition in
          ReportWritingBenchmark.rowsPerSecond(scenario: scenario, seed: UInt64(repetition + 1))
        })
    }
    if var field = scenarios?.field, wanted("calibrate_lines") {
      // `--quick` (and the tests) log a few phones over its days.
      if let devices = fleetDevices { field.fleet.devices = Swift.min(field.fleet.devices, devices) }
      if let days = scenarioDays { field.days = Swift.min(field.days, days) }
      let benchmark = CalibrationBenchmark(scenario: field)
      rows.append(
        Measurement(benchmark: "calibrate_lines", parameter: field.name, unit: "lines_per_s") { _ in
          benchmark.linesPerSecond()
        })
    }
    if let base = scenarios?.fieldPath, wanted("calibrate_phones") {
      let benchmark = CalibrationFleetBenchmark(
        phones: fleetDevices.map { Swift.min($0 * 500, calibrationPhones) } ?? calibrationPhones, linesPerPhone: 10,
        base: base, jobs: Console.standard.cores)
      rows.append(
        Measurement(benchmark: "calibrate_phones", parameter: benchmark.parameter, unit: "phones_per_s") { _ in
          benchmark.phonesPerSecond()
        })
    }
    return rows
  }
}
