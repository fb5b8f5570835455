import ResultStorage
import Results
import SimulationEngine
import Statistics

/// One device's own figures while it runs, folded into the aggregate when it finishes.
struct DeviceTally {
  /// The trajectory so far: every handled event's time, kind and target folded in, in order.
  var trajectory = TrajectoryFingerprint()
  /// Per day and instance (``byInstance``): whether a request found no budget.
  var exhausted: [Bool]
  /// Per day and instance (``byInstance``): time of day (µs) of the last immediate budget grant; -1 if none.
  var lastGrant: [Int64]
  /// A row per day, a cell per instance: the aggregate's ``ReplicationResult/byInstance``, into which the
  /// device folds both tables cell by cell.
  let byInstance: TableLayout
  var reloads = 0
  var staleness = QuantileSketch()
  /// Poisson firings taken without an event of their own (``ProcessDeferral``), counted as handled events.
  var deferredFirings: UInt64 = 0
  /// Per instance: the builds since the warm-up ended (a build adds to them in place, not to the aggregate's
  /// arrays, which it would first check for sharing).
  let builds: FixedTable<BuildTally>

  init(days: Int, instanceCount: Int) {
    byInstance = TableLayout(columns: instanceCount)
    exhausted = Array(repeating: false, count: byInstance.start(ofRow: days))
    lastGrant = Array(repeating: -1, count: byInstance.start(ofRow: days))
    builds = FixedTable(Array(repeating: BuildTally(), count: instanceCount))
  }
}

/// One instance's timeline builds on one device: how many, their CPU time, the fetches and bytes fetched.
struct BuildTally {
  var builds = 0
  var cpuMicros: Int128 = 0
  var fetches = 0
  var fetchBytes: Int128 = 0
}
