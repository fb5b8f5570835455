import Fleets
import WidgetModel

/// What estimating a sampled fleet's per-second figures costs (``ServerSeconds``' estimate, docs/model.md
/// "Per-second load from a sample"), as a share of the fleet run.
public enum SampleEstimateBenchmark {
  /// What the estimate adds, in percent, to one fleet replication of `scenario` on one thread whose `devices`
  /// stand for 100 phones each: the run is timed whole; then its per-second summary is timed again,
  /// estimated and counted (what a run that simulates every phone does anyway), and the difference is the
  /// estimate's, set against the run without it. For a tiny fleet it may come out slightly negative: the
  /// two summaries' times are then within noise of each other.
  public static func percentOfRun(scenario: ScenarioConfiguration, devices: Int, seed: UInt64) -> Double {
    var sampled = scenario
    sampled.seed = seed
    sampled.fleet.devices = devices
    sampled.fleet.represents = Double(devices) * 100
    var counted = sampled
    counted.fleet.represents = Double(devices)
    let stopwatch = Stopwatch()
    var result = FleetRunner.run(sampled, replication: 0, jobs: 1).result
    let runNanoseconds = stopwatch.elapsedNanoseconds
    // Each summary's fastest of three: the run is long enough to time once; a summary of a small fleet is not.
    func fastest(_ configuration: ScenarioConfiguration) -> Double {
      var best = Double.infinity
      for _ in 0..<3 {
        let stopwatch = Stopwatch()
        result.summariseSeconds(configuration)
        best = Swift.min(best, stopwatch.elapsedNanoseconds)
        keepAlive(result.provisioning)
      }
      return best
    }
    let estimatedNanoseconds = fastest(sampled)
    let countedNanoseconds = fastest(counted)
    // The run itself estimated once: without that, it is the run of a fleet that simulates every phone.
    let estimate = estimatedNanoseconds - countedNanoseconds
    return 100 * estimate / (runNanoseconds - estimate)
  }
}
