import SimulationEngine
import Testing

@testable import WidgetModel

/// Absorbing a table into a sum adds what merging adds and leaves the table empty, on every path: walked
/// through its booked columns, pairs or busy runs when they are few, whole when they are many, and through the
/// side table of counts too large for their cells.
@Suite("Absorbing results into a sum")
struct AbsorbTests {
  /// A small random count (fixed seed).
  private static func draw(_ generator: inout SplitMix64, below bound: UInt64) -> UInt64 {
    generator.next() % bound
  }

  @Test(
    "energy columns: absorbed as merged, walked (few booked) and whole (most booked), then empty", arguments: [3, 40])
  func bookedColumns(bookedColumns: Int) {
    var generator = SplitMix64(state: 11)
    let (rows, columns) = (48, 50)
    var sum = BookedColumns<Int128, UInt128>(rows: rows, columns: columns)
    var other = BookedColumns<Int128, UInt128>(rows: rows, columns: columns)
    for column in 0..<columns where column % 7 == 0 {
      sum.add(Int128(AbsorbTests.draw(&generator, below: 1_000)), row: column % rows, column: column)
    }
    for column in 0..<bookedColumns {
      for row in 0..<rows where row % 3 != 1 {
        other.add(Int128(AbsorbTests.draw(&generator, below: 1_000_000)), row: row, column: column)
      }
    }
    #expect(other.walksColumns == (bookedColumns * 2 <= columns))
    var merged = sum
    merged.merge(other, wrapping: true)
    sum.absorb(&other)
    #expect(sum.cells == merged.cells)
    #expect(sum.booked == merged.booked)
    #expect(other.cells.allSatisfy { $0 == 0 })
    #expect(other.booked == 0, "an emptied table books nothing")
  }

  @Test("reload tally: absorbed as merged, through its pairs (few) and whole (many), then empty", arguments: [4, 120])
  func reloadTally(pairsHeld: Int) {
    var generator = SplitMix64(state: 12)
    let (hours, pairs) = (72, 280)
    var sum = ReloadTally(hours: hours, pairs: pairs)
    var other = ReloadTally(hours: hours, pairs: pairs)
    for _ in 0..<500 {
      sum.count(pair: Int(AbsorbTests.draw(&generator, below: UInt64(pairs))), hourIndex: Int(generator.next() % 72))
    }
    for _ in 0..<3_000 {
      let pair = Int(AbsorbTests.draw(&generator, below: UInt64(pairsHeld))) * (pairs / pairsHeld)
      other.count(pair: pair, hourIndex: Int(AbsorbTests.draw(&generator, below: UInt64(hours))))
    }
    var merged = sum
    merged.merge(other)
    sum.absorb(&other)
    #expect(sum == merged)
    #expect(other == ReloadTally(hours: hours, pairs: pairs), "an absorbed tally is empty")
  }

  /// Counts in 1-byte cells, so that sums pass the cell's limit and go to the side table.
  private static func counts(_ count: Int, cells: Int, seed: UInt64, each starts: [Int], width: Int) -> CompactCounts<
    UInt8
  > {
    var generator = SplitMix64(state: seed)
    var counts = CompactCounts<UInt8>(count: count)
    for _ in 0..<cells {
      let start = starts[Int(AbsorbTests.draw(&generator, below: UInt64(starts.count)))]
      let index = start * width + Int(AbsorbTests.draw(&generator, below: UInt64(width)))
      counts.add(AbsorbTests.draw(&generator, below: 300), at: index)
    }
    return counts
  }

  @Test("compact counts: absorbed as merged through busy runs, large counts included")
  func compactCounts() {
    let width = 6
    let runs = 40
    let busy = [1, 2, 7, 19, 33, 39]
    // Both sides hold counts past 255 (the side table) in some of the same cells.
    var sum = AbsorbTests.counts(runs * width, cells: 200, seed: 13, each: busy + [5], width: width)
    var other = AbsorbTests.counts(runs * width, cells: 200, seed: 14, each: busy, width: width)
    var merged = sum
    merged.merge(other, each: busy, width: width)
    sum.absorb(&other, each: busy, width: width)
    #expect(sum == merged)
    #expect(other == CompactCounts<UInt8>(count: runs * width), "absorbed counts are empty, side table included")
    #expect((0..<(runs * width)).contains { merged[$0] > 255 }, "some sums went to the side table")
  }

  @Test("compact counts in runs: transposed, runs' leading cells dropped, some runs' cells emptied, cell by cell")
  func compactCountsInRuns() {
    let (runs, width) = (9, 7)
    // Counts past 255 (the side table) in some cells.
    let counts = AbsorbTests.counts(runs * width, cells: 150, seed: 17, each: Array(0..<runs), width: width)
    #expect((0..<(runs * width)).contains { counts[$0] > 255 }, "some counts are in the side table")

    let swapped = counts.transposed(runs: runs, width: width)
    for run in 0..<runs {
      for position in 0..<width { #expect(swapped[position * runs + run] == counts[run * width + position]) }
    }
    #expect(swapped.transposed(runs: width, width: runs) == counts, "transposed back, the same counts")

    for dropped in [0, 1, 3, width] {
      var cut = counts
      cut.dropFirst(dropped, ofRunsOf: width)
      let kept = width - dropped
      #expect(cut.count == runs * kept)
      for run in 0..<runs {
        for position in 0..<kept { #expect(cut[run * kept + position] == counts[run * width + dropped + position]) }
      }
    }

    // Emptied after a reset (which drops the side table), as a day is.
    var filled = CompactCounts<UInt8>(count: runs * width)
    for index in 0..<(runs * width) { filled.add(UInt64(index % 200 + 1), at: index) }
    let emptied = [1, 4, 8]
    var cleared = filled
    cleared.clear(2..<5, ofRuns: emptied, width: width)
    for run in 0..<runs {
      for position in 0..<width {
        let index = run * width + position
        let expected = emptied.contains(run) && (2..<5).contains(position) ? 0 : filled[index]
        #expect(cleared[index] == expected, "run \(run), cell \(position)")
      }
    }
  }

  @Test("push counts: known to be empty until counted; absorbed as merged, then known to be empty again")
  func pushCounts() throws {
    let (hours, cellsPerHour) = (48, 10)
    var sum = PushCounts(count: hours * cellsPerHour)
    for index in stride(from: 3, to: hours * cellsPerHour, by: 37) { sum.count(at: index) }
    let before = sum

    var none = PushCounts(count: hours * cellsPerHour)
    #expect(!none.mayHoldCounts)
    sum.absorb(&none)
    #expect(sum == before && none == PushCounts(count: hours * cellsPerHour))

    var some = PushCounts(count: hours * cellsPerHour)
    for index in [0, 5, 5, 479] { some.count(at: index) }
    var merged = sum
    merged.merge(some)
    sum.absorb(&some)
    #expect(sum == merged && sum[5] == before[5] + 2 && sum[479] == before[479] + 1)
    #expect(some == PushCounts(count: hours * cellsPerHour) && !some.mayHoldCounts, "absorbed counts are empty")

    // Read back, a table with counts may hold them and an empty one is known to be empty.
    for table in [sum, some] {
      var writer = BinaryWriter(magic: [])
      table.encode(to: &writer)
      var reader = try BinaryReader(checksummed: writer.checksummedBytes, magic: [], kind: "pushes")
      let read = try PushCounts(from: &reader)
      #expect(read == table && read.mayHoldCounts == (table.cells.contains { $0 != 0 }))
    }

    // A table that may hold counts stays so through the days' emptying and a dropped warm-up (its counts of
    // later days remain), and only a reset makes it known to be empty.
    var days = sum
    days.resetAllButDays()
    days.clear(days: 0..<1, of: 2)
    #expect(days.mayHoldCounts && days[479] == sum[479] && days[5] == 0)
    days.dropFirst(days: 1, of: 2)
    #expect(days.mayHoldCounts && days.count == hours * cellsPerHour / 2)
    days.reset()
    #expect(!days.mayHoldCounts && days.cells.allSatisfy { $0 == 0 })
  }
}
