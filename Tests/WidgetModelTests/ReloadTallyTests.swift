import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// Reload requests by hour and pair: a phone's few pairs are merged through its totals, a fleet's many
/// through every cell, and both give the sums of every hour's counts.
@Suite("Reload tally")
struct ReloadTallyTests {
  static let hours = 48
  static let pairs = 3 * ReplicationResult.causeCount * ReplicationResult.outcomeCount

  /// `requests` requests spread over `pairsUsed` random pairs and every hour, with repeats in one cell.
  static func tally(_ requests: Int, pairsUsed: Int, seed: UInt64) -> ReloadTally {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed, replication: 0, entity: 0, stream: 2))
    let used = (0..<pairsUsed).map { _ in Int(stream.uniform() * Double(pairs)) }
    var tally = ReloadTally(hours: hours, pairs: pairs)
    for _ in 0..<requests {
      tally.count(pair: used[Int(stream.uniform() * Double(used.count))], hourIndex: Int(stream.uniform() * 48))
    }
    return tally
  }

  /// Every cell's count and every pair's total, read one by one.
  static func cells(_ tally: ReloadTally) -> [UInt64] {
    (0..<hours).flatMap { hour in (0..<pairs).map { tally[pair: $0, hourIndex: hour] } }
  }

  @Test("merging gives every cell's sum, a phone's few pairs and a fleet's many alike", arguments: [1, 4, 40, 300])
  func mergeSums(pairsUsed: Int) {
    var sum = ReloadTallyTests.tally(5_000, pairsUsed: 60, seed: 7)
    let other = ReloadTallyTests.tally(800, pairsUsed: pairsUsed, seed: UInt64(pairsUsed))
    let expected = zip(ReloadTallyTests.cells(sum), ReloadTallyTests.cells(other)).map(+)
    let totals = zip(sum.totals, other.totals).map(+)
    sum.merge(other)
    #expect(ReloadTallyTests.cells(sum) == expected)
    #expect(sum.totals == totals)
    #expect(sum.totals.reduce(0, +) == 5_800)
  }

  @Test("a sum past a cell's limit moves to the side table on the few-pairs path")
  func largeCountsOnTheSparsePath() {
    var sum = ReloadTally(hours: ReloadTallyTests.hours, pairs: ReloadTallyTests.pairs)
    var other = sum
    for _ in 0..<3 { other.count(pair: 5, hourIndex: 2) }
    for _ in 0..<40 { sum.merge(other) }
    // Push one cell close to UInt32.max through repeated merges of a large tally.
    var large = ReloadTally(hours: ReloadTallyTests.hours, pairs: ReloadTallyTests.pairs)
    for _ in 0..<1_000 { large.count(pair: 5, hourIndex: 2) }
    var doubling = large
    for _ in 0..<23 { doubling.merge(doubling) }  // 1,000 x 2^23 > UInt32.max
    sum.merge(doubling)
    #expect(sum[pair: 5, hourIndex: 2] == 120 + 1_000 << 23)
    #expect(sum.totals[5] == 120 + 1_000 << 23)
    #expect(sum[pair: 5, hourIndex: 3] == 0 && sum[pair: 6, hourIndex: 2] == 0)
  }

  @Test("a tally read back is the one written; counts where the totals hold none are refused")
  func readBack() throws {
    let tally = ReloadTallyTests.tally(2_000, pairsUsed: 10, seed: 3)
    var writer = BinaryWriter(magic: [])
    tally.encode(to: &writer)
    var reader = try BinaryReader(checksummed: writer.checksummedBytes, magic: [], kind: "tally")
    #expect(try ReloadTally(from: &reader) == tally)
    // Files hold the counts hour by hour (`hourIndex * pairs + pair`), as before the tally was kept pair by pair.
    let written = tally.hourMajor
    #expect((0..<written.count).map { written[$0] } == ReloadTallyTests.cells(tally))

    // The same counts with one held pair's total written as 0: the merge would skip its counts.
    let held = try #require(tally.totals.firstIndex { $0 != 0 })
    var forged = BinaryWriter(magic: [])
    tally.hourMajor.encode(to: &forged)
    var totals = tally.totals
    totals[held] = 0
    totals.encode(to: &forged)
    var forgedReader = try BinaryReader(checksummed: forged.checksummedBytes, magic: [], kind: "tally")
    #expect(throws: BinaryDecodingError.self) { try ReloadTally(from: &forgedReader) }
  }

  @Test("a result read from a file must have the scenario's hours and pairs")
  func shapeChecked() throws {
    let widgets = ["a", "b", "c"].map { ModelFixtures.widget($0, policy: .never) }
    let configuration = ModelFixtures.quiet(widgets, days: 2)
    var result = ReplicationResult(configuration, replication: 0)
    result.reloads = ReloadTally(hours: 24, pairs: ReloadTallyTests.pairs)
    var writer = BinaryWriter(magic: [])
    result.encode(to: &writer)
    var reader = try BinaryReader(checksummed: writer.checksummedBytes, magic: [], kind: "result")
    #expect(throws: BinaryDecodingError.self) { try ReplicationResult(from: &reader, configuration: configuration) }
  }

  @Test(
    "a tally reused for another run is empty day by day through the pairs it held, few or many", arguments: [2, 300])
  func reuseEmptiesHeldPairs(pairsUsed: Int) {
    // Run 1 uses some pairs; emptied for reuse, run 2 counts in others while its days are opened one by one.
    var tally = ReloadTallyTests.tally(3_000, pairsUsed: pairsUsed, seed: 11)
    let second = ReloadTallyTests.tally(500, pairsUsed: 3, seed: 12)
    tally.resetAllButDays()
    for day in 0..<2 {
      tally.clear(days: day..<(day + 1), of: 2)
      for hour in (day * 24)..<(day * 24 + 24) {
        for pair in 0..<ReloadTallyTests.pairs {
          for _ in 0..<second[pair: pair, hourIndex: hour] { tally.count(pair: pair, hourIndex: hour) }
        }
      }
    }
    #expect(ReloadTallyTests.cells(tally) == ReloadTallyTests.cells(second))
    #expect(tally == second)
    // A third run after the second: the pairs of both runs are emptied.
    tally.resetAllButDays()
    tally.clear(days: 0..<2, of: 2)
    #expect(ReloadTallyTests.cells(tally).allSatisfy { $0 == 0 })
    // A tally of no pairs (a result of no widget instances) is emptied as a no-op.
    var none = ReloadTally(hours: 48, pairs: 0)
    none.resetAllButDays()
    none.clear(days: 0..<2, of: 2)
    #expect(none == ReloadTally(hours: 48, pairs: 0))
  }
}
