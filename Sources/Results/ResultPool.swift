import ResultStorage

/// Finished results kept for the next replication of the same scenario to run into: a 30-day result holds
/// megabytes of accumulators (see ``SparePool``). Shared by the threads of a run (or of a sweep, point after
/// point): spares of another shape than the one asked for are dropped when a result is taken, so the pool
/// never pins results it cannot use (a warm-up's result, shortened by its warm-up days, never fits again).
public final class ResultPool: Sendable {
  private let spares: SparePool<ReplicationResult>
  /// Warm-up scratch results (a device's warm-up days run into one, whose figures are then thrown away): a
  /// replication's device takes one and hands it back emptied of nothing (the next device empties it), so
  /// replications run one after another do not each make one.
  private let scratches: SparePool<ReplicationResult>

  /// At most `capacity` results are kept (one per thread and a few in flight), and as many scratches.
  public init(capacity: Int = 16) {
    spares = SparePool(capacity: capacity)
    scratches = SparePool(capacity: capacity)
  }

  /// An empty result of `shape`, reused when one is spare.
  package func take(_ shape: ResultShape, replication: Int, keepsActivityRecords: Bool) -> ReplicationResult {
    guard var spare = spares.take(fitting: { $0.fits(shape, keepsActivityRecords: keepsActivityRecords) }) else {
      return ReplicationResult(shape, replication: replication, keepsActivityRecords: keepsActivityRecords)
    }
    // Its arrays are not shared with the pool, so emptying them copies nothing (unless its user kept a copy:
    // then the first write copies once).
    spare.reset(replication: replication)
    return spare
  }

  /// Spares held now.
  public var spareCount: Int { spares.count }

  /// A warm-up scratch result handed back earlier, if any (of whatever shape: the device checks it).
  package func takeWarmupScratch() -> ReplicationResult? {
    scratches.take()
  }

  /// Hands back a warm-up scratch result.
  package func giveWarmupScratch(_ scratch: consuming ReplicationResult) {
    scratches.give(scratch)
  }

  /// Hands back a result its user has finished reading.
  public func give(_ result: consuming ReplicationResult) {
    spares.give(result)
  }
}
