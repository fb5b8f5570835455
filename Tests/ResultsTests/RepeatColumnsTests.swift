import ResultStorage
import SimulationEngine
import Testing

@testable import Results

/// A phone's repeated requests are kept a column per source, a cell a second only for the sources that
/// repeat in many seconds, and read, merged and written as the second-by-second table they stand for.
@Suite("Repeat columns")
struct RepeatColumnsTests {
  /// A source that repeats in a few seconds only: it keeps a table, not a cell a second.
  static let rare = ServerSource.widgetPush.rawValue

  /// Repeats drawn with a fixed seed over three sources, some cells past a byte (the side table), and a
  /// fourth (``rare``) with a repeat in three seconds.
  static func drawn(seed: UInt64, seconds: Int) -> (columns: RepeatColumns, dense: [UInt64]) {
    var generator = SplitMix64(state: seed)
    var columns = RepeatColumns(secondCount: seconds)
    var dense = Array(repeating: UInt64(0), count: seconds * ServerSource.count)
    let sources = [ServerSource.widgetFetch.rawValue, 3, ServerSource.count - 1]
    for _ in 0..<2_000 {
      let second = Int(generator.next() % UInt64(seconds))
      // A few seconds take hundreds: their cells pass 254 and go to the side table.
      let busy = second % 97 == 0 ? 300 : 1
      let source = sources[Int(generator.next() % UInt64(sources.count))]
      for _ in 0..<busy { columns.add(second: second, source: source) }
      dense[ServerSource.bySlot.index(second, source)] += UInt64(busy)
    }
    for _ in 0..<3 {
      let second = Int(generator.next() % UInt64(seconds))
      columns.add(second: second, source: rare)
      dense[ServerSource.bySlot.index(second, rare)] += 1
    }
    #expect(!columns.keepsCells(rare) && columns.keepsCells(ServerSource.widgetFetch.rawValue))
    return (columns, dense)
  }

  @Test("reads what was added, in every second and source; sources that never repeat read zero")
  func readsWhatWasAdded() {
    let (columns, dense) = RepeatColumnsTests.drawn(seed: 5, seconds: 1_000)
    for second in 0..<1_000 {
      for source in 0..<ServerSource.count {
        #expect(columns[second, source] == dense[ServerSource.bySlot.index(second, source)])
      }
    }
    #expect(dense.contains { $0 > 254 })
    #expect((0..<1_000).contains { dense[ServerSource.bySlot.index($0, RepeatColumnsTests.rare)] > 0 })
  }

  @Test("a source's table turns into a cell a second past its share of the seconds, reading the same")
  func tableTurnsIntoCells() {
    let seconds = 12_800
    var columns = RepeatColumns(secondCount: seconds)
    var other = RepeatColumns(secondCount: seconds)
    let limit = seconds / RepeatColumn.fewShare
    for step in 0...limit {
      let second = step * 7 % seconds
      columns.add(second: second, source: 2)
      columns.add(second: second, source: 2)
      if step < 3 { other.add(second: second + 1, source: 2) }
      #expect(columns.keepsCells(2) == (step == limit))
      #expect(columns[second, 2] == 2 && columns[second + 1, 2] == 0)
    }
    // A table merged into cells and cells into a table: the same sums either way, in cells.
    var tableFirst = other
    tableFirst.merge(columns)
    var cellsFirst = columns
    cellsFirst.merge(other)
    #expect(tableFirst == cellsFirst && tableFirst.keepsCells(2) && !other.keepsCells(2))
    #expect(tableFirst[1, 2] == 1 && tableFirst[0, 2] == 2 && tableFirst[7, 2] == 2)
  }

  @Test("the second-by-second table and back give the same columns; merged sums the cells")
  func roundTripAndMerge() {
    let (first, firstDense) = RepeatColumnsTests.drawn(seed: 5, seconds: 500)
    let (second, secondDense) = RepeatColumnsTests.drawn(seed: 6, seconds: 500)
    let table = first.bySecond
    #expect((0..<table.count).map { table[$0] } == firstDense)
    #expect(RepeatColumns(bySecond: table, secondCount: 500) == first)
    var merged = first
    merged.merge(second)
    let sums = zip(firstDense, secondDense).map { $0 + $1 }
    #expect((0..<merged.bySecond.count).map { merged.bySecond[$0] } == sums)
    #expect(merged != first)
  }

  @Test("emptied columns equal never-allocated ones; dropping days moves the seconds down")
  func resetAndDrop() {
    let (drawn, dense) = RepeatColumnsTests.drawn(seed: 7, seconds: 600)
    var columns = drawn
    #expect(!columns.isEmpty)
    var dropped = columns
    dropped.dropFirst(seconds: 200)
    for second in 0..<400 {
      for source in 0..<ServerSource.count {
        #expect(dropped[second, source] == dense[ServerSource.bySlot.index(second + 200, source)])
      }
    }
    columns.reset()
    #expect(columns == RepeatColumns(secondCount: 600))
    #expect(RepeatColumns(secondCount: 600).bySecond.count == 0)
  }
}
