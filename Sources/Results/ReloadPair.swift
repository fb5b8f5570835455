import ResultStorage

/// One instance's reload requests with one cause that ended with one outcome: a pair of ``ReloadTally``,
/// instance by instance, then cause, then outcome.
struct ReloadPair {
  /// Its place among the tally's pairs.
  let index: Int

  /// The pairs' layout: a row per instance and cause, a cell per outcome.
  static var layout: TableLayout3 {
    TableLayout3(middle: ReplicationResult.causeCount, inner: ReplicationResult.outcomeCount)
  }

  init(instance: Int, cause: ReloadCause, outcome: ReloadOutcome) {
    index = ReloadPair.layout.index(instance, cause.rawValue, outcome.rawValue)
  }
}
