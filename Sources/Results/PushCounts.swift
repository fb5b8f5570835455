import ResultStorage
import SimulationEngine

/// Push counts by hour, target, priority and ``PushCounter`` (see
/// ``ReplicationResult/pushIndex(hourIndex:target:priority:counter:)``), summed over devices, and whether any
/// was ever counted since they were last known to be all zero.
///
/// Most phones get no push at all, and their counts (some 28 KB for a week) are zero in every hour: adding
/// them into a run's sum, emptying them for reuse and summing them for the summary then skip the cells
/// entirely, where they read and wrote every one of them each replication. Invariant, kept by every writer:
/// when ``mayHoldCounts`` is false, every cell is zero.
package struct PushCounts: Sendable, Equatable, DayCleared, Shaped {
  private(set) var cells: [UInt64]
  /// False only when every cell is known to be zero.
  private(set) var mayHoldCounts = false

  package init() {
    self.init(count: 0)
  }

  package init(count: Int) {
    cells = Array(repeating: 0, count: count)
  }

  var count: Int { cells.count }
  package var shape: [Int] { [cells.count] }

  subscript(index: Int) -> UInt64 { cells[index] }

  /// Equal counts (whether a zero table was known to be zero is bookkeeping, not a count).
  package static func == (lhs: PushCounts, rhs: PushCounts) -> Bool { lhs.cells == rhs.cells }

  @inline(__always)
  mutating func count(at index: Int) {
    cells[index] += 1
    mayHoldCounts = true
  }

  package mutating func merge(_ other: PushCounts) {
    precondition(cells.count == other.cells.count, "merged push counts of different shapes")
    guard other.mayHoldCounts else { return }  // all zero
    cells.merge(other.cells)
    mayHoldCounts = true
  }

  /// Merges `other` and empties it (when it may hold counts): its reuse then has nothing to empty.
  package mutating func absorb(_ other: inout PushCounts) {
    precondition(cells.count == other.cells.count, "merged push counts of different shapes")
    guard other.mayHoldCounts else { return }
    merge(other)
    other.reset()
  }

  package mutating func reset() {
    if mayHoldCounts { cells.reset() }
    mayHoldCounts = false
  }

  package mutating func clear(days: Range<Int>, of total: Int) {
    if mayHoldCounts { cells.clear(days: days, of: total) }
  }

  /// The days' counts stay until they are cleared (so the counts may still be held).
  package mutating func resetAllButDays() {}

  package mutating func dropFirst(days: Int, of total: Int) {
    cells.dropFirst(days: days, of: total)
  }
}

/// The counts as a plain array of cells (the format shard files have always had).
extension PushCounts: BinaryCodable {
  package func encode(to writer: inout BinaryWriter) {
    cells.encode(to: &writer)
  }

  package init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    cells = try [UInt64](from: &reader)
    mayHoldCounts = cells.contains { $0 != 0 }
  }
}
