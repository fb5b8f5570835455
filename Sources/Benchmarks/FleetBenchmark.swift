import Fleets
import WidgetModel

/// The fleet runner's speed: devices simulated per second on one thread (so the figure is per core).
public enum FleetBenchmark {
  /// Devices per second for one fleet replication of `scenario` with the seed replaced by `seed` and, when
  /// `devices` is given, that many devices instead of the scenario's (for quick runs).
  public static func devicesPerSecond(scenario: ScenarioConfiguration, devices: Int? = nil, seed: UInt64) -> Double {
    var configuration = scenario
    configuration.seed = seed
    if let devices { configuration.fleet.devices = devices }
    let stopwatch = Stopwatch()
    let run = FleetRunner.run(configuration, replication: 0, jobs: 1)
    let elapsedNanoseconds = stopwatch.elapsedNanoseconds
    keepAlive(run.result.eventsHandled)
    return Double(configuration.fleet.devices) / (elapsedNanoseconds / 1e9)
  }
}
