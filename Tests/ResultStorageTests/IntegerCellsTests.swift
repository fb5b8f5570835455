import SimulationEngine
import Testing

@testable import ResultStorage

/// The wrapping loop that merges a result's integer arrays finds exactly the sums a checked add would trap
/// on, for every cell type results use, and otherwise adds what checked adds give.
@Suite struct IntegerCellsTests {
  /// Whether `a + b` overflows, by the checked add.
  private func overflows<Cell: FixedWidthInteger>(_ a: Cell, _ b: Cell) -> Bool {
    a.addingReportingOverflow(b).overflow
  }

  /// Adds `theirs` into `mine` with the loop; its overflow flag and the sums.
  private func merged<Cell: FixedWidthInteger>(_ mine: [Cell], _ theirs: [Cell]) -> (overflow: Bool, sums: [Cell]) {
    var mine = mine
    let overflow = mine.withUnsafeMutableBufferPointer { mine in
      theirs.withUnsafeBufferPointer { IntegerCells.addWrapping(mine, $0) }
    }
    return (overflow, mine)
  }

  /// Edge values of a type and random ones (fixed seed), each pair added in a cell of its own and alone.
  private func check<Cell: FixedWidthInteger>(_: Cell.Type) {
    var generator = SplitMix64(state: 7)
    var values: [Cell] = [0, 1, 2, .max, .max - 1, .min, .min + 1, .max / 2, .max / 2 + 1]
    if Cell.isSigned { values += [0 - 1, 0 - 2, .min / 2, .min / 2 - 1] }
    while values.count < 60 {
      var value = Cell(truncatingIfNeeded: generator.next())
      if Cell.bitWidth > 64 { value = value << 64 | Cell(truncatingIfNeeded: generator.next()) }
      values.append(value)
    }
    var mine: [Cell] = []
    var theirs: [Cell] = []
    for a in values {
      for b in values {
        mine.append(a)
        theirs.append(b)
        // Alone: the flag is the checked add's verdict on this one pair.
        let single = merged([a], [b])
        #expect(single.overflow == overflows(a, b), "\(Cell.self) \(a) + \(b)")
        #expect(single.sums == [a &+ b])
      }
    }
    // Together (the loop in vector registers): any overflow among them is found, and every sum is right.
    let all = merged(mine, theirs)
    #expect(all.overflow == zip(mine, theirs).contains { overflows($0, $1) })
    #expect(all.sums == zip(mine, theirs).map { $0 &+ $1 })
    let safe = zip(mine, theirs).filter { !overflows($0.0, $0.1) }
    let safeSums = merged(safe.map(\.0), safe.map(\.1))
    #expect(!safeSums.overflow)
    #expect(safeSums.sums == safe.map { $0.0 + $0.1 })
  }

  @Test("the wrapping merge flags exactly the overflows of checked adds (Int, Int32, Int64, UInt64, Int128)")
  func overflowFlag() {
    check(Int.self)
    check(Int32.self)
    check(Int64.self)
    check(UInt64.self)
    check(Int128.self)
  }
}
