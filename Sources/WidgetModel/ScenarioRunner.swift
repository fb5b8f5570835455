import SimulationEngine

/// Runs a scenario's replications and hands back their results in replication order.
public enum ScenarioRunner {
  /// Simulates replication `replication` of the scenario on device 0; with `trace`, the result lists
  /// every reload that ran.
  public static func runReplication(
    _ configuration: ScenarioConfiguration, replication: Int, trace: Bool = false
  ) -> ReplicationResult {
    DeviceSimulation.run(configuration: configuration, replication: replication, trace: trace)
  }

  /// Simulates every replication, one after another.
  public static func run(_ configuration: ScenarioConfiguration) -> [ReplicationResult] {
    (0..<configuration.replications).map { runReplication(configuration, replication: $0) }
  }
}
