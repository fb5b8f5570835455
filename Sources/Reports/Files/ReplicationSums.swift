import Results
import Synchronization
import WidgetModel

/// The default reports' sum of replications run side by side, added up on the threads that ran them: each
/// thread adds its replication into a partial total it takes from here, so the run's writer merges a few
/// partial totals per batch (``RunReportWriter/add(_:)``) instead of every replication in turn on its own
/// thread. Partial totals add up to the bit whatever replications each one got (see ``RunTotal``).
public final class ReplicationSums: Sendable {
  private let subjects: RunSummary.Subjects
  /// Partial totals not in use by a thread.
  private let totals = Mutex<[RunTotal]>([])

  init(subjects: RunSummary.Subjects) {
    self.subjects = subjects
  }

  /// Adds one replication's result (from any thread), emptying it as it goes (``RunTotal/absorb(_:peakRows:)``).
  /// Returns the result when it was added into a partial total, for its memory to serve another replication
  /// once reset; nil when it became a partial total.
  public func add(_ result: consuming ReplicationResult) -> ReplicationResult? {
    var total = totals.withLock { $0.popLast() } ?? RunTotal()
    let spare = total.absorb(result) { ServerPeakReport.rows($0, subjects: subjects) }
    totals.withLock { $0.append(total) }
    return spare
  }

  /// Takes every partial total out.
  func take() -> [RunTotal] {
    totals.withLock { totals in
      defer { totals = [] }
      return totals
    }
  }
}
