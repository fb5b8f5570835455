import SimulationEngine
import Testing

@testable import ResultStorage

/// Absorbing a table of booked columns into a sum adds what merging adds and leaves the table empty, walked
/// through its booked columns when they are few and whole when they are many.
@Suite("Booked columns")
struct BookedColumnsTests {
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
      sum.add(Int128(BookedColumnsTests.draw(&generator, below: 1_000)), row: column % rows, column: column)
    }
    for column in 0..<bookedColumns {
      for row in 0..<rows where row % 3 != 1 {
        other.add(Int128(BookedColumnsTests.draw(&generator, below: 1_000_000)), row: row, column: column)
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
}
