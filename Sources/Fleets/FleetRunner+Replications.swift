import Dispatch
import Results
import Synchronization
import WidgetModel

extension FleetRunner {
  /// Whether a run of `configuration` on `jobs` threads should run replications side by side (one thread
  /// each) rather than spread each replication's devices over the threads: when the fleet is too small to
  /// keep every thread busy for long (one device, a handful), and there are replications to share out.
  public static func runsReplicationsSideBySide(_ configuration: ScenarioConfiguration, jobs: Int) -> Bool {
    jobs > 1 && configuration.replications > 1 && configuration.fleet.devices < 8 * jobs
  }

  /// Runs `replications` side by side on `jobs` threads, each replication whole on one thread (its devices
  /// in order), as ``run(_:replication:jobs:perDevice:shard:progress:stop:pool:summedOnly:)`` runs it: each result is the same
  /// to the bit. Results come back in replication order; a replication not finished when `stop` said so is
  /// nil. Results come from `pool` when it has spares. Each replication's result goes to `process` on its own
  /// thread (figures derived from it, or sums of it, are then made side by side too); `finished` is called
  /// (from any thread) as each replication ends. `summedOnly`: as for ``run(_:replication:jobs:perDevice:shard:progress:stop:pool:summedOnly:)``.
  public static func run<Output: Sendable>(
    _ configuration: ScenarioConfiguration, replications: Range<Int>, jobs: Int, perDevice: Bool = false,
    finished: (@Sendable (Int) -> Void)? = nil, stop: (@Sendable () -> Bool)?, pool: ResultPool? = nil,
    summedOnly: Bool = false, process: @Sendable (consuming ReplicationResult, [DeviceSummary]) -> Output
  ) -> [Output?] {
    let count = replications.count
    let results = Mutex<[Output?]>(Array(repeating: nil, count: count))
    let next = Atomic<Int>(0)
    let done = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: Swift.max(1, Swift.min(jobs, count))) { _ in
      while true {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < count, stop?() != true else { return }
        guard
          let (result, devices) = run(
            configuration, replication: replications.lowerBound + index, jobs: 1, perDevice: perDevice, stop: stop,
            pool: pool, summedOnly: summedOnly)
        else { return }
        let output = process(result, devices)
        results.withLock { $0[index] = output }
        finished?(done.wrappingAdd(1, ordering: .relaxed).newValue)
      }
    }
    return results.withLock { $0 }
  }
}
