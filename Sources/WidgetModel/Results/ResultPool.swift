import Synchronization

/// Finished results kept for the next replication of the same scenario to run into: a 30-day result holds
/// megabytes of accumulators, and emptying one costs a fraction of what the kernel charges to map and zero
/// fresh pages for a new one. Shared by the threads of a run (or of a sweep, point after point): spares of
/// another shape than the one asked for are dropped when a result is taken, so the pool never pins results
/// it cannot use (a warm-up's result, shortened by its warm-up days, never fits again).
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
    // Taken out of the list, not copied: its arrays are not shared with the pool, so emptying them copies
    // nothing (unless its user kept a copy: then the first write copies once).
    // The closure captures the shape, not the configuration (a capture is a copy: a retain of each array).
    let shape = ResultShape(configuration)
    let keepsActivityRecords = configuration.fleet.devices == 1
    guard
      var spare = spares.withLock({ spares -> ReplicationResult? in
        spares.removeAll { !$0.fits(shape, keepsActivityRecords: keepsActivityRecords) }
        return spares.popLast()
      })
    else { return ReplicationResult(shape, replication: replication, keepsActivityRecords: keepsActivityRecords) }
    spare.reset(replication: replication)
    return spare
  }

  /// Spares held now.
  public var spareCount: Int { spares.withLock { $0.count } }

  /// Warm-up scratch results (a device's warm-up days run into one, whose figures are then thrown away): a
  /// replication's device takes one and hands it back emptied of nothing (the next device empties it), so
  /// replications run one after another do not each make one.
  private let scratches = Mutex<[ReplicationResult]>([])

  /// A warm-up scratch result handed back earlier, if any (of whatever shape: the device checks it).
  func takeWarmupScratch() -> ReplicationResult? {
    scratches.withLock { $0.popLast() }
  }

  /// Hands back a warm-up scratch result.
  func giveWarmupScratch(_ scratch: consuming ReplicationResult) {
    keep(scratch, in: scratches)
  }

  /// Hands back a result its user has finished reading.
  public func give(_ result: consuming ReplicationResult) {
    keep(result, in: spares)
  }

  /// Adds `result` to `list` while it holds fewer than ``capacity`` (moved in, not copied).
  private func keep(_ result: consuming ReplicationResult, in list: borrowing Mutex<[ReplicationResult]>) {
    var handed: ReplicationResult? = consume result
    list.withLock { list in
      if list.count < capacity, let result = handed.take() { list.append(result) }
    }
  }
}
