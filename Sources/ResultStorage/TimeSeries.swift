/// An accumulator over time: the first days can be cut off. Most are day-major (days, or hours, or minutes
/// first); the tables a phone fills in a few columns are column-major (``BookedColumns``, a reload tally), and
/// cut each column.
public protocol TimeSeries: Accumulator {
  /// Removes the first `days` of `total`.
  mutating func dropFirst(days: Int, of total: Int)
}

/// An accumulator over time whose days are emptied as a run reaches them, not all at once when it is reset
/// (see `ReplicationResult.open(throughDay:)` in `Results`): a 30-day result holds megabytes, and emptying a
/// day just before the device writes to it keeps those cells in the cache, where emptying all of them at the
/// start left each day's first writes waiting for memory (a column-major table empties the day in each column
/// it may hold).
public protocol DayCleared: TimeSeries {
  /// Empties days `days` of `total` (every cell a device can write while those days run).
  mutating func clear(days: Range<Int>, of total: Int)
  /// Empties everything but the cells over time, which ``clear(days:of:)`` empties later.
  mutating func resetAllButDays()
}
