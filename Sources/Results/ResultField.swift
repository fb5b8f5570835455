import SimulationEngine

/// One accumulator of ``ReplicationResult``: where it is, and how big it is for a shape.
package protocol ResultField: Sendable {
  /// Which property it is (distinct for every field).
  var keyPath: AnyKeyPath { get }
  func allocate(_ result: inout ReplicationResult, _ shape: ResultShape)
  /// Adds `other`'s field (`other` is not changed). It is passed `inout` so that the key path reads it in
  /// place: applied to a result passed by value, it copies the whole result first (a retain and release of
  /// each of its arrays, for every field).
  func merge(_ result: inout ReplicationResult, _ other: inout ReplicationResult)
  /// Adds `other`'s field and may empty it (see ``Accumulator/absorb(_:)``).
  func absorb(_ result: inout ReplicationResult, _ other: inout ReplicationResult)
  func reset(_ result: inout ReplicationResult)
  /// Whether it is kept over time (and so emptied day by day: see ``DayCleared``).
  var isOverTime: Bool { get }
  /// Empties it, or (`leavingDays`) everything but its cells over time.
  func reset(_ result: inout ReplicationResult, leavingDays: Bool)
  /// Empties days `days` of `total` of a field over time; nothing for others.
  func clear(_ result: inout ReplicationResult, days: Range<Int>, of total: Int)
  /// Leaves out the first `days` of `total` days (the warm-up) from a field over time; others are kept.
  func dropFirst(_ result: inout ReplicationResult, days: Int, of total: Int)
  func encode(_ result: ReplicationResult, _ writer: inout BinaryWriter)
  /// Replaces the field with the one read; it must have the size the result was allocated with.
  func decode(_ result: inout ReplicationResult, _ reader: inout BinaryReader) throws(BinaryDecodingError)
}
