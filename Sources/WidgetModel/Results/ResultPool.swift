import Synchronization

/// Finished results kept for the next replication of the same scenario to run into: a 30-day result holds
/// megabytes of accumulators, and emptying one costs a fraction of what the kernel charges to map and zero
/// fresh pages for a new one. Shared by the threads of a run; results of another shape are not kept.
public final class ResultPool: Sendable {
  private let spares = Mutex<[ReplicationResult]>([])
  /// At most this many results are kept (one per thread and a few in flight).
  private let capacity: Int

  public init(capacity: Int = 16) {
    self.capacity = capacity
  }

  /// An empty result for replication `replication` of `configuration` with the shape a fleet worker (or a
  /// single device) needs, reused when one is spare.
  func take(_ configuration: ScenarioConfiguration, replication: Int) -> ReplicationResult {
    // Taken out of the list, not copied: its arrays stay uniquely referenced, so emptying them copies nothing.
    guard
      var spare = spares.withLock({ spares -> ReplicationResult? in
        guard let index = spares.lastIndex(where: { $0.fits(configuration) }) else { return nil }
        return spares.remove(at: index)
      })
    else { return ReplicationResult(configuration, replication: replication) }
    spare.reset(replication: replication)
    return spare
  }

  /// Hands back a result its user has finished reading.
  public func give(_ result: consuming ReplicationResult) {
    var handed: ReplicationResult? = consume result
    spares.withLock { spares in
      if spares.count < capacity, let result = handed.take() { spares.append(result) }
    }
  }
}
