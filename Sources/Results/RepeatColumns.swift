import ResultStorage
import SimulationEngine

/// Requests a phone made of a source it had asked in the same second already (several widgets reloading
/// together), by source and second: what ``ServerSeconds/phones(second:source:)`` takes from the requests.
///
/// A column per source, each empty until the source records its first repeat: a fleet repeats only a few of
/// its sources (its widgets' fetches, one push type sent for several changes in a second), so it keeps a
/// byte a second for those, not for every source. Exact as the counts are (``CompactCounts``); a never
/// allocated column reads as zeros and equals an allocated one of zeros.
struct RepeatColumns: Sendable, Equatable {
  /// Seconds each allocated column covers.
  private(set) var secondCount: Int
  /// By ``ServerSource`` raw value: empty, or a cell a second.
  private var columns: [CompactCounts<UInt8>]

  init(secondCount: Int) {
    self.secondCount = secondCount
    columns = Array(repeating: CompactCounts(count: 0), count: ServerSource.count)
  }

  /// Whether any source has recorded a repeat (since it was allocated).
  var isEmpty: Bool { columns.allSatisfy { $0.count == 0 } }

  /// The repeats of `source` (a raw value) in `second`.
  subscript(second: Int, source: Int) -> UInt64 {
    columns[source].count == 0 ? 0 : columns[source][second]
  }

  /// One more repeat of `source` (a raw value) in `second`.
  mutating func add(second: Int, source: Int) {
    if columns[source].count == 0 { columns[source] = CompactCounts(count: secondCount) }
    columns[source].add(1, at: second)
  }

  mutating func merge(_ other: RepeatColumns) {
    precondition(secondCount == other.secondCount, "merged repeats of different runs")
    for source in columns.indices where other.columns[source].count > 0 {
      if columns[source].count == 0 { columns[source] = CompactCounts(count: secondCount) }
      columns[source].merge(other.columns[source])
    }
  }

  /// Zeros every column, keeping its memory.
  mutating func reset() {
    for source in columns.indices where columns[source].count > 0 { columns[source].reset() }
  }

  mutating func dropFirst(seconds: Int) {
    for source in columns.indices where columns[source].count > 0 { columns[source].dropFirst(seconds) }
    secondCount -= seconds
  }

  static func == (lhs: RepeatColumns, rhs: RepeatColumns) -> Bool {
    guard lhs.secondCount == rhs.secondCount else { return false }
    return lhs.columns.indices.allSatisfy { source in
      let (left, right) = (lhs.columns[source], rhs.columns[source])
      if left.count == 0 || right.count == 0 {
        return (left.count == 0 || left.firstNonZero(from: 0) == nil)
          && (right.count == 0 || right.firstNonZero(from: 0) == nil)
      }
      return left == right
    }
  }

  /// Second by second, a cell per source (``ServerSource/bySlot``): the layout shard files hold. Empty when
  /// no source has a column.
  var bySecond: CompactCounts<UInt8> {
    guard !isEmpty else { return CompactCounts(count: 0) }
    var dense = CompactCounts<UInt8>(count: secondCount * ServerSource.count)
    for source in columns.indices where columns[source].count > 0 {
      var next = 0
      while let second = columns[source].firstNonZero(from: next) {
        dense.add(columns[source][second], at: ServerSource.bySlot.index(second, source))
        next = second + 1
      }
    }
    return dense
  }

  /// Columns from the second-by-second layout (``bySecond``); only the sources with a repeat get one.
  init(bySecond dense: CompactCounts<UInt8>, secondCount: Int) {
    self.init(secondCount: secondCount)
    var next = 0
    while let index = dense.firstNonZero(from: next) {
      let (second, source) = index.quotientAndRemainder(dividingBy: ServerSource.count)
      if columns[source].count == 0 { columns[source] = CompactCounts(count: secondCount) }
      columns[source].add(dense[index], at: second)
      next = index + 1
    }
  }
}
