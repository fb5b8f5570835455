import Dispatch
import Results
import SimulationEngine
import Synchronization
import WidgetModel

/// Simulates a fleet of devices for one replication, spread over `jobs` threads.
///
/// Each device runs alone with its own small event set and its own streams (seeded by device index), and
/// is added to its thread's aggregate as soon as it finishes; memory does not grow with the number of
/// devices. Aggregates hold only integers, so the threads' aggregates add up to the same bits however the
/// devices were shared out: reports are byte-identical for every `jobs`.
public enum FleetRunner {
  /// Runs every device of the fleet; returns the aggregate and, when `perDevice`, each device's figures in
  /// device order.
  public static func run(
    _ configuration: ScenarioConfiguration, replication: Int, jobs: Int, perDevice: Bool = false,
    progress: (@Sendable (FleetProgress) -> Void)? = nil
  ) -> (result: ReplicationResult, devices: [DeviceSummary]) {
    // Without `stop` every device runs.
    run(configuration, replication: replication, jobs: jobs, perDevice: perDevice, progress: progress, stop: nil)!
  }

  /// As ``run(_:replication:jobs:perDevice:progress:)``, but each thread asks `stop` before each device and
  /// gives up when it says so (Ctrl-C): then the replication is incomplete and the result is nil. Threads
  /// take their results from `pool` when it has spares, and the ones merged away go back to it.
  /// `summedOnly`: the result is only summarised (``ServerLoad/minuteTotals()``, the totals) and added into a
  /// run's sum (``ReplicationResult/absorb(_:)``, ``ReplicationResult/merge(_:)``), never read minute by
  /// minute; a small replication's server requests may then stay as requests (``ServerLoad/keepsRequests``).
  public static func run(
    _ configuration: ScenarioConfiguration, replication: Int, jobs: Int, perDevice: Bool = false,
    shard: FleetShard = .whole, progress: (@Sendable (FleetProgress) -> Void)? = nil, stop: (@Sendable () -> Bool)?,
    pool: ResultPool? = nil, summedOnly: Bool = false
  ) -> (result: ReplicationResult, devices: [DeviceSummary])? {
    let devices = shard.devices(of: configuration.fleet.devices)
    let workers = Swift.max(1, Swift.min(jobs, devices))
    let counters = FleetCounters(devices: devices, progress: progress)
    if workers == 1 {
      // One worker (one job, replications run side by side, or at most one device): on this thread, without
      // a dispatch, the hand-over arrays and their locks, or a move of the result through them.
      let (aggregate, mine) = runWorker(
        0, of: 1, configuration, replication: replication, perDevice: perDevice, shard: shard, counters: counters,
        stop: stop, pool: pool, keepsRequests: summedOnly)
      if counters.stopped.load(ordering: .relaxed) { return nil }
      return (FleetShare.finish(consume aggregate, configuration), mine)  // `mine` is empty without perDevice
    }
    let results = Mutex<[ReplicationResult?]>(Array(repeating: nil, count: workers))
    let summaries = Mutex<[[DeviceSummary]]>(Array(repeating: [], count: workers))
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      let (aggregate, mine) = runWorker(
        worker, of: workers, configuration, replication: replication, perDevice: perDevice, shard: shard,
        // Threads' results are merged: only a one-worker run's result may keep its requests.
        counters: counters, stop: stop, pool: pool, keepsRequests: false)
      // Moved in, not copied (each copy retains and then releases every array of the result).
      var handed = Optional(consume aggregate)
      results.withLock { $0[worker] = handed.take() }
      summaries.withLock { $0[worker] = mine }
    }
    if counters.stopped.load(ordering: .relaxed) { return nil }
    // Moved out of the mutex, not copied: a second reference would make the merge copy every array.
    var combined = results.withLock { results in
      defer { results = [] }
      return results
    }
    guard var result = combined[0].take() else { preconditionFailure("a worker left no result") }
    for index in combined.indices.dropFirst() {
      guard let other = combined[index].take() else { preconditionFailure("a worker left no result") }
      result.merge(other)
      pool?.give(other)
    }
    result = FleetShare.finish(consume result, configuration)
    // The shard's device at position p ran on worker p % workers, in order: interleave the workers' lists
    // back into device order.
    let lists = summaries.withLock { $0 }
    var ordered: [DeviceSummary] = []
    if perDevice {
      ordered.reserveCapacity(devices)
      for position in 0..<devices { ordered.append(lists[position % workers][position / workers]) }
    }
    return (result, ordered)
  }

  /// One thread's share of the fleet: devices `worker`, `worker + workers`, ... of the shard, each added to
  /// the thread's aggregate as soon as it finishes. `keepsRequests`: the aggregate may keep its server
  /// requests as requests (see ``ServerLoad/keepsRequests``).
  static func runWorker(
    _ worker: Int, of workers: Int, _ configuration: ScenarioConfiguration, replication: Int, perDevice: Bool,
    shard: FleetShard, counters: FleetCounters, stop: (@Sendable () -> Bool)?, pool: ResultPool?,
    keepsRequests: Bool = false
  ) -> (ReplicationResult, [DeviceSummary]) {
    let share = shard.share(worker: worker, of: workers, fleet: configuration.fleet.devices)
    let outcome = share.run(
      configuration, replication: replication, perDevice: perDevice, pool: pool, keepsRequests: keepsRequests,
      stop: stop, finished: counters.deviceFinished(events:))
    if outcome.stopped { counters.stopped.store(true, ordering: .relaxed) }
    return (outcome.result, outcome.devices)
  }
}
