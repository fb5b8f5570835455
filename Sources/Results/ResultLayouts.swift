import ResultStorage

/// Where the cells of a replication's flat tables lie, each layout named once: readers and writers ask for a
/// cell by what it is (an instance's hour, a kind's ending, a channel's outcome), not by computing its place.
/// The layouts are those files and reports have always had.
extension ReplicationResult {
  /// The run's hours, day by day.
  @inlinable static var hoursOfDays: TableLayout { TableLayout(columns: 24) }

  /// The run's hour of hour `hour` (0..<24) on day `day`.
  @inlinable static func hourIndex(day: Int, hour: Int) -> Int { hoursOfDays.index(day, hour) }

  /// Tables with a cell per instance in each row (a day, or an hour): budgets, exhausted budgets, grants.
  @inlinable package var byInstance: TableLayout { TableLayout(columns: instanceCount) }

  /// Push counts: a row per hour, target (``PushTarget/index``) and priority (10 first, then 5)...
  var pushRows: TableLayout3 { TableLayout3(middle: pushTargetCount, inner: 2) }
  /// ...and in each row a cell per ``PushCounter``.
  static var pushCounters: TableLayout { TableLayout(columns: PushCounter.count) }

  /// App wakes: a row per ``AppWakeChannel``, a cell per ``AppWakeOutcome``.
  static var appWakeCells: TableLayout { TableLayout(columns: AppWakeOutcome.count) }

  /// Live Activity totals: a row per kind, a cell per ``ActivityEnding``.
  @inlinable package static var activityEndings: TableLayout { TableLayout(columns: ActivityEnding.allCases.count) }

  /// Live Activity views: per kind and ``ActivitySurface``, the views and those past the stale date.
  static var activityViewCells: TableLayout3 { TableLayout3(middle: ActivitySurface.count, inner: 2) }
}

extension ServerSource {
  /// Counts by slot (a minute, or a second) and source: a row per slot, a cell per source.
  @inlinable static var bySlot: TableLayout { TableLayout(columns: count) }
}
