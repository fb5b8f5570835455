import Results
import SimulationEngine

/// Runs a scenario's replications (one device, or a fleet) and hands back their results in replication order.
public enum ScenarioRunner {
  /// Events one device of `configuration` handles per simulated day, measured by simulating it (device 0,
  /// replication 0) for up to two days: what the work estimate and limit multiply out, so a scenario's own
  /// rates (a 1-minute `.after`, pushes every few seconds) count, not only its size.
  public static func eventsPerDeviceDay(_ configuration: ScenarioConfiguration) -> Double {
    var pilot = configuration
    pilot.days = Swift.min(configuration.simulatedDays, 2)
    pilot.warmupDays = 0
    pilot.fleet.devices = 1
    pilot.replications = 1
    let result = DeviceSimulation.run(FleetDevice.draw(0, of: pilot, replication: 0), replication: 0)
    return Double(result.eventsHandled) / Double(Swift.max(1, pilot.days))
  }

  /// Simulates replication `replication` on this thread: device 0 alone, or the whole fleet one device after
  /// another (`FleetRunner`, in the module `Fleets`, spreads a fleet over threads, to the same bits). With
  /// `trace` (single device only), the result lists every reload that ran. With `pool`, the result is one of
  /// its spares when it has one of the right shape (give it back when done reading it): repeated runs then
  /// reuse their memory.
  public static func runReplication(
    _ configuration: ScenarioConfiguration, replication: Int, trace: Bool = false, pool: ResultPool? = nil
  ) -> ReplicationResult {
    if configuration.fleet.devices == 1 {
      var result = DeviceSimulation.run(
        FleetDevice.draw(0, of: configuration, replication: replication), replication: replication, trace: trace,
        into: pool?.take(configuration, replication: replication))
      result.dropWarmup(days: configuration.warmupDays)
      return result
    }
    let share = FleetShare.whole(configuration).run(
      configuration, replication: replication, perDevice: false, pool: pool, keepsRequests: false, stop: nil,
      finished: { _ in })
    return FleetShare.finish(share.result, configuration)
  }

  /// Everything fleet device `device` (0 for a single phone) did in replication `replication` (`widgetsim run
  /// --trace` traces the first), on the measured days' clock, in time order: the device simulated again alone,
  /// with the very draws it has in the run (tracing draws nothing).
  public static func trace(_ configuration: ScenarioConfiguration, device: Int, replication: Int = 0)
    -> [TraceRecord]
  {
    DeviceSimulation.trace(configuration, device: device, replication: replication)
  }

  /// What fleet device `device`'s app could have logged in replication `replication` (`widgetsim run
  /// --field-log` logs the first): the device simulated again alone, with the very draws it has in the run.
  public static func fieldLog(
    _ configuration: ScenarioConfiguration, device: Int, replication: Int = 0, schedules: FleetSchedules? = nil
  ) -> FieldLog {
    DeviceSimulation.fieldLog(configuration, device: device, replication: replication, schedules: schedules)
  }

  /// Simulates every replication, one after another, on this thread.
  public static func run(_ configuration: ScenarioConfiguration) -> [ReplicationResult] {
    (0..<configuration.replications).map { runReplication(configuration, replication: $0) }
  }
}
