import Results
import SimulationEngine

/// Running a device: one replication of a fleet's device as drawn, or of one device alone, from its start
/// to the end of the run (the warm-up into its scratch result, then the measured days).
extension DeviceSimulation {
  /// Simulates one replication of a fleet's device as drawn.
  static func run(
    _ drawn: FleetDevice, replication: Int, device: Int = 0, trace: Bool = false,
    broadcasts: BroadcastSchedule? = nil, events: FleetEventSchedule? = nil,
    into aggregate: consuming ReplicationResult? = nil
  ) -> ReplicationResult {
    run(
      configuration: drawn.configuration, replication: replication, device: device, trace: trace,
      clockOffset: drawn.clockOffset, installed: drawn.installed, installTime: drawn.installTime,
      broadcasts: broadcasts, events: events, into: consume aggregate)
  }

  /// As ``run(_:replication:device:trace:broadcasts:events:into:)``, running the warm-up (if any) into
  /// `warmupScratch` when it is a spare of the right shape, and handing the warm-up's scratch back in it:
  /// a thread's devices share one scratch result rather than each making one. `record` receives what the
  /// device recorded of itself.
  static func run(
    _ drawn: FleetDevice, replication: Int, device: Int, broadcasts: BroadcastSchedule?, events: FleetEventSchedule?,
    into aggregate: consuming ReplicationResult?, warmupScratch: inout ReplicationResult?, record: inout DeviceRecord
  ) -> ReplicationResult {
    var simulation = DeviceSimulation(
      configuration: drawn.configuration, replication: replication, device: device, clockOffset: drawn.clockOffset,
      installed: drawn.installed, installTime: drawn.installTime, broadcasts: broadcasts, events: events,
      into: consume aggregate, warmupScratch: warmupScratch.take())
    simulation.simulate()
    warmupScratch = simulation.spareScratch.take()
    record = simulation.recorder.record
    return simulation.takeResult()
  }

  /// Simulates one replication of one device.
  static func run(
    configuration: ScenarioConfiguration, replication: Int, device: Int = 0, trace: Bool = false,
    clockOffset: SimDuration = .zero, installed: [Bool]? = nil, installTime: SimDuration = .zero,
    broadcasts: BroadcastSchedule? = nil, events: FleetEventSchedule? = nil,
    into aggregate: consuming ReplicationResult? = nil
  ) -> ReplicationResult {
    var simulation = DeviceSimulation(
      configuration: configuration, replication: replication, device: device, clockOffset: clockOffset,
      installed: installed, installTime: installTime, broadcasts: broadcasts, events: events,
      into: consume aggregate)
    if trace {
      simulation.trace = []
      simulation.appTrace = []
    }
    simulation.simulate()
    let shift = simulation.measuredFrom - SimTime.zero
    simulation.recorder.keepTrace(
      simulation.trace?.compactMap { $0.shifted(back: shift) },
      app: simulation.appTrace?.compactMap { $0.shifted(back: shift) })
    return simulation.takeResult()
  }

  /// Runs the device from its start to the end of the run: the warm-up into its scratch result, then the
  /// measured days.
  mutating func simulate() {
    var scheduler = Scheduler(capacity: 64 + 4 * instances.count)
    start(&scheduler)
    if heldAggregate != nil {
      _ = scheduler.run(until: measuredFrom, handler: &self)
      runDeferred(before: measuredFrom, &scheduler)
      endWarmup()
    }
    _ = scheduler.run(until: end, handler: &self)
    finish(&scheduler)
  }

  /// Hands the aggregate back without leaving a second reference to its arrays behind.
  mutating func takeResult() -> ReplicationResult {
    recorder.takeResult()
  }
}
