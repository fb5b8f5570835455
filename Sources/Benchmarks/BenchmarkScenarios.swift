import Reports
import ScenarioFiles
import Sweeps
import WidgetModel

/// The scenario files the model, fleet and sweep benchmarks run, read from one directory
/// (`Scenarios/bench` by default) so the figures follow files anyone can read and re-run.
public struct BenchmarkScenarios: Sendable {
  /// Single-device scenarios for `model_events` and `model_device_days`, one row each, in this order (after
  /// the built-in `bench-model`).
  public static let modelFiles = ["light.yaml", "typical.yaml", "push-heavy.yaml", "polling.yaml"]
  /// The fleet scenario for `fleet_devices`.
  public static let fleetFile = "fleet.yaml"
  /// The sweep for `sweep_points`.
  public static let sweepFile = "sweep.yaml"
  /// The field app for `calibrate_lines` (its log, and the base scenario it is fitted on).
  public static let fieldFile = "field.yaml"
  /// The default directory, relative to the package root.
  public static let defaultDirectory = "Scenarios/bench"

  /// The `model_events` scenarios, in `modelFiles` order.
  public let models: [ScenarioConfiguration]
  /// The `fleet_devices` scenario.
  public let fleet: ScenarioConfiguration
  /// The `calibrate_lines` scenario, and its file (the base scenario `calibrate_phones` fits on).
  public let field: ScenarioConfiguration?
  public var fieldPath: String?
  /// The `sweep_points` sweep, with common random numbers as `widgetsim sweep` runs it by default.
  public let sweep: SweepPlan

  public init(
    models: [ScenarioConfiguration], fleet: ScenarioConfiguration, sweep: SweepPlan, field: ScenarioConfiguration? = nil
  ) {
    self.models = models
    self.fleet = fleet
    self.field = field
    self.sweep = sweep
  }

  /// Loads every benchmark scenario from `directory`; the error names the directory or the file at fault.
  public static func load(directory: String) throws(BenchmarkScenarioError) -> BenchmarkScenarios {
    guard TextFile.isDirectory(directory) else {
      throw BenchmarkScenarioError(
        message: "benchmark scenario directory '\(directory)' not found (expected "
          + "\((modelFiles + [fleetFile, sweepFile, fieldFile]).joined(separator: ", "))); "
          + "run from the package root or pass --scenarios DIR")
    }
    func path(_ file: String) -> String { directory.hasSuffix("/") ? directory + file : "\(directory)/\(file)" }
    do {
      var models: [ScenarioConfiguration] = []
      for file in modelFiles {
        models.append(try ScenarioLoader.load(path: path(file)).configuration)
      }
      let fleet = try ScenarioLoader.load(path: path(fleetFile)).configuration
      let sweep = try SweepLoader.load(path: path(sweepFile))
      let field = try ScenarioLoader.load(path: path(fieldFile)).configuration
      var scenarios = BenchmarkScenarios(
        models: models, fleet: fleet, sweep: SweepPlan(sweep: sweep, overrides: [], commonRandomNumbers: true),
        field: field)
      scenarios.fieldPath = path(fieldFile)
      return scenarios
    } catch {
      throw BenchmarkScenarioError(message: "benchmark scenario: \(error)")
    }
  }
}

/// A benchmark scenario directory or file that cannot be used, with a message a user can act on.
public struct BenchmarkScenarioError: Error, CustomStringConvertible, Sendable {
  public let message: String
  public var description: String { message }
}
