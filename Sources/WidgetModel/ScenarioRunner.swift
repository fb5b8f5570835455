import SimulationEngine

/// Runs a scenario's replications (one device, or a fleet) and hands back their results in replication order.
public enum ScenarioRunner {
  /// Simulates replication `replication`: device 0 alone, or the whole fleet over `jobs` threads. With
  /// `trace` (single device only), the result lists every reload that ran.
  public static func runReplication(
    _ configuration: ScenarioConfiguration, replication: Int, trace: Bool = false, jobs: Int = 1
  ) -> ReplicationResult {
    if configuration.fleet.devices == 1 {
      let (device, offset, installed) = FleetRunner.device(0, of: configuration, replication: replication)
      return DeviceSimulation.run(
        configuration: device, replication: replication, trace: trace, clockOffset: offset, installed: installed)
    }
    return FleetRunner.run(configuration, replication: replication, jobs: jobs).result
  }

  /// Simulates every replication, one after another.
  public static func run(_ configuration: ScenarioConfiguration, jobs: Int = 1) -> [ReplicationResult] {
    (0..<configuration.replications).map { runReplication(configuration, replication: $0, jobs: jobs) }
  }
}
