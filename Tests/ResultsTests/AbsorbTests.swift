import SimulationEngine
import Testing

@testable import Results

/// Absorbing a table into a sum adds what merging adds and leaves the table empty, on every path: walked
/// through its booked columns, pairs or busy runs when they are few, whole when they are many, and through the
/// side table of counts too large for their cells.
@Suite("Absorbing results into a sum")
struct AbsorbTests {
  /// A small random count (fixed seed).
  private static func draw(_ generator: inout SplitMix64, below bound: UInt64) -> UInt64 {
    generator.next() % bound
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
