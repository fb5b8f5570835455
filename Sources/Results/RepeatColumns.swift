import ResultStorage
import SimulationEngine

/// Requests a phone made of a source it had asked in the same second already (several widgets reloading
/// together), by source and second: what ``ServerSeconds/phones(second:source:)`` takes from the requests.
///
/// A column per source (``RepeatColumn``): a source's first repeats are kept by second in a small table, and
/// only a source that repeats in many seconds (its widgets' fetches) gets a byte a second. A fleet repeats
/// few of its sources often (an app's fetch or a push type sent for several changes in a second repeats a
/// few times a run), so it keeps a byte a second for those alone. Exact as the counts are
/// (``CompactCounts``); a column reads the same whichever way it holds its repeats.
struct RepeatColumns: Sendable, Equatable {
  /// Seconds each column covers.
  private(set) var secondCount: Int
  /// By ``ServerSource`` raw value.
  private var columns: [RepeatColumn]

  init(secondCount: Int) {
    self.secondCount = secondCount
    columns = Array(repeating: RepeatColumn(), count: ServerSource.count)
  }

  /// Whether no source holds a repeat or a cell a second.
  var isEmpty: Bool { columns.allSatisfy(\.isEmpty) }

  /// The repeats of `source` (a raw value) in `second`.
  subscript(second: Int, source: Int) -> UInt64 { columns[source][second] }

  /// Whether `source` (a raw value) keeps a cell a second, rather than a table of its few repeats.
  func keepsCells(_ source: Int) -> Bool { columns[source].keepsCells }

  /// One more repeat of `source` (a raw value) in `second`.
  mutating func add(second: Int, source: Int) {
    columns[source].add(1, at: second, secondCount: secondCount)
  }

  mutating func merge(_ other: RepeatColumns) {
    precondition(secondCount == other.secondCount, "merged repeats of different runs")
    for source in columns.indices { columns[source].merge(other.columns[source], secondCount: secondCount) }
  }

  /// Zeros every column, keeping its memory.
  mutating func reset() {
    for source in columns.indices { columns[source].reset() }
  }

  mutating func dropFirst(seconds: Int) {
    for source in columns.indices { columns[source].dropFirst(seconds) }
    secondCount -= seconds
  }

  static func == (lhs: RepeatColumns, rhs: RepeatColumns) -> Bool {
    lhs.secondCount == rhs.secondCount
      && lhs.columns.indices.allSatisfy { lhs.columns[$0].sameRepeats(as: rhs.columns[$0]) }
  }

  /// Second by second, a cell per source (``ServerSource/bySlot``): the layout shard files hold. Empty when
  /// no source holds a repeat or a cell a second.
  var bySecond: CompactCounts<UInt8> {
    guard !isEmpty else { return CompactCounts(count: 0) }
    var dense = CompactCounts<UInt8>(count: secondCount * ServerSource.count)
    for source in columns.indices {
      for (second, count) in columns[source].repeats {
        dense.add(count, at: ServerSource.bySlot.index(second, source))
      }
    }
    return dense
  }

  /// Columns from the second-by-second layout (``bySecond``).
  init(bySecond dense: CompactCounts<UInt8>, secondCount: Int) {
    self.init(secondCount: secondCount)
    var next = 0
    while let index = dense.firstNonZero(from: next) {
      let (second, source) = index.quotientAndRemainder(dividingBy: ServerSource.count)
      columns[source].add(dense[index], at: second, secondCount: secondCount)
      next = index + 1
    }
  }
}

/// One source's repeats by second: a table of the seconds that hold any while they are few, a cell a second
/// (``CompactCounts``) once they are many.
struct RepeatColumn: Sendable {
  /// A cell a second; empty while the repeats are kept in ``few``.
  private var cells = CompactCounts<UInt8>(count: 0)
  /// Repeats by second, while there is no cell a second.
  private var few: [Int: UInt64] = [:]

  /// Seconds the table holds at most, as a share of the run's: past it, a cell a second. A table entry
  /// takes 16 bytes and, with the table's free slots, 43 at most, so the table stays near a third (43 / 128) of the
  /// cells' bytes.
  static let fewShare = 128

  var isEmpty: Bool { cells.count == 0 && few.isEmpty }

  var keepsCells: Bool { cells.count > 0 }

  subscript(second: Int) -> UInt64 {
    cells.count > 0 ? cells[second] : few[second, default: 0]
  }

  /// `amount` more repeats in `second` of a run of `secondCount` seconds.
  @inline(__always)
  mutating func add(_ amount: UInt64, at second: Int, secondCount: Int) {
    if cells.count > 0 {
      cells.add(amount, at: second)
      return
    }
    few[second, default: 0] += amount
    if few.count > secondCount / RepeatColumn.fewShare { makeCells(secondCount) }
  }

  /// Moves the table's repeats into a cell a second.
  private mutating func makeCells(_ secondCount: Int) {
    cells = CompactCounts(count: secondCount)
    for (second, count) in few { cells.add(count, at: second) }
    few = [:]
  }

  mutating func merge(_ other: RepeatColumn, secondCount: Int) {
    if other.cells.count > 0 {
      if cells.count == 0 { makeCells(secondCount) }
      cells.merge(other.cells)
    } else {
      for (second, count) in other.few { add(count, at: second, secondCount: secondCount) }
    }
  }

  /// Zeros the column, keeping its memory.
  mutating func reset() {
    if cells.count > 0 { cells.reset() }
    few.removeAll(keepingCapacity: true)
  }

  mutating func dropFirst(_ seconds: Int) {
    if cells.count > 0 {
      cells.dropFirst(seconds)
    } else if !few.isEmpty {
      var kept: [Int: UInt64] = [:]
      for (second, count) in few where second >= seconds { kept[second - seconds] = count }
      few = kept
    }
  }

  /// The seconds that hold a repeat and their repeats, ascending.
  var repeats: [(second: Int, count: UInt64)] {
    guard cells.count > 0 else { return few.filter { $0.value > 0 }.map { ($0.key, $0.value) }.sorted { $0 < $1 } }
    var found: [(second: Int, count: UInt64)] = []
    var next = 0
    while let second = cells.firstNonZero(from: next) {
      found.append((second, cells[second]))
      next = second + 1
    }
    return found
  }

  /// Whether the two hold the same repeats in every second, however each holds them.
  func sameRepeats(as other: RepeatColumn) -> Bool {
    if cells.count > 0 && other.cells.count > 0 { return cells == other.cells }
    return repeats.elementsEqual(other.repeats) { $0 == $1 }
  }
}
