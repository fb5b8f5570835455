import SimulationEngine
import Testing

@testable import ResultStorage

/// Compact counts stay exact past their cell size (the side table) through adds, batches, merges, absorbs,
/// emptied ranges, cut runs and transposes.
@Suite("Compact counts")
struct CompactCountsTests {
  /// A small random count (fixed seed).
  private static func draw(_ generator: inout SplitMix64, below bound: UInt64) -> UInt64 {
    generator.next() % bound
  }

  @Test("compact counts are exact past 254 per cell, through merges and a dropped start")
  func compactCounts() {
    var counts = CompactCounts<UInt8>(count: 10)
    var expected = Array(repeating: UInt64(0), count: 10)
    var other = CompactCounts<UInt8>(count: 10)
    var otherExpected = Array(repeating: UInt64(0), count: 10)
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 5, replication: 0, entity: 0, stream: 1))
    for _ in 0..<5_000 {
      let index = Int(stream.uniform() * 10)
      let amount = UInt64(stream.uniform() * 3)
      if stream.bernoulli(0.5) {
        counts.add(amount, at: index)
        expected[index] += amount
      } else {
        other.add(amount, at: index)
        otherExpected[index] += amount
      }
    }
    #expect((0..<10).map { counts[$0] } == expected)
    #expect(expected.contains { $0 > 255 })
    counts.merge(other)
    #expect((0..<10).map { counts[$0] } == zip(expected, otherExpected).map { $0 + $1 })
    counts.dropFirst(4)
    #expect((0..<6).map { counts[$0] } == zip(expected, otherExpected).map { $0 + $1 }.suffix(6))
  }

  @Test("a merge is exact on either side of the cells' limit: sums below it in the cells, from it in the side table")
  func mergeAtTheLimit() {
    // 254 fits a UInt8 cell; 255 is the mark of a large count, so a sum of 255 or more must leave the cells.
    for (mine, theirs) in [(UInt64(127), UInt64(127)), (128, 127), (200, 100), (0, 254), (254, 0), (3, 4)] {
      var counts = CompactCounts<UInt8>(count: 3)
      var other = CompactCounts<UInt8>(count: 3)
      counts.add(mine, at: 1)
      other.add(theirs, at: 1)
      other.add(1, at: 2)
      counts.merge(other)
      #expect([counts[0], counts[1], counts[2]] == [0, mine + theirs, 1], "\(mine) + \(theirs)")
      #expect((counts.cells[1] == UInt8.max) == (mine + theirs >= 255), "\(mine) + \(theirs)")
    }
  }

  @Test("adding a batch gives the counts of adding its entries one by one, across the cells' limit")
  func batchAddsMatchSingleAdds() {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 6, replication: 0, entity: 0, stream: 1))
    // Batches with skipped entries, amounts that pass the cell's limit at once or cell by cell.
    let entries: [(index: Int, amount: UInt64)?] = (0..<4_000).map { _ in
      stream.bernoulli(0.1)
        ? nil : (Int(stream.uniform() * 6), stream.bernoulli(0.01) ? 300 : UInt64(stream.uniform() * 4))
    }
    var batched = CompactCounts<UInt8>(count: 6)
    var single = CompactCounts<UInt8>(count: 6)
    for batch in stride(from: 0, to: entries.count, by: 500) {
      batched.addEach(500) { entries[batch + $0] }
      for entry in entries[batch..<(batch + 500)] {
        if let entry { single.add(entry.amount, at: entry.index) }
      }
    }
    let expected = (0..<6).map { index in entries.reduce(UInt64(0)) { $0 + ($1?.index == index ? $1!.amount : 0) } }
    #expect((0..<6).map { batched[$0] } == expected)
    #expect((0..<6).map { single[$0] } == expected)
    #expect(expected.allSatisfy { $0 > 255 })
  }

  @Test("compact counts merge and empty a range of cells exactly, across the cells' limit")
  func compactCountRanges() {
    var counts = CompactCounts<UInt8>(count: 6)
    var other = CompactCounts<UInt8>(count: 6)
    for (index, amount) in [(0, UInt64(200)), (1, 300), (2, 5), (4, 9)] { counts.add(amount, at: index) }
    for (index, amount) in [(0, UInt64(100)), (1, 1), (2, 7), (3, 2), (5, 4)] { other.add(amount, at: index) }
    counts.merge(other, each: [0, 1], width: 2)
    #expect((0..<6).map { counts[$0] } == [300, 301, 12, 2, 9, 0])
    counts.zero(each: [1, 2], width: 1)
    #expect((0..<6).map { counts[$0] } == [300, 0, 0, 2, 9, 0])
    counts.add(3, at: 1)
    #expect(counts[1] == 3, "an emptied marked cell keeps no large count")
    counts.zero(each: [2], width: 2)
    #expect((0..<6).map { counts[$0] } == [300, 3, 0, 2, 0, 0])
  }

  @Test("compact counts find the first nonzero cell and a range's nonzero cells as a linear search does")
  func nonzeroScans() {
    var mismatches: [String] = []
    for length in 1...20 {
      // Nothing counted, then one cell counted: small, or past its limit (marked, in the side table).
      for filled in [nil] + (0..<length).map(Optional.some) {
        for large in [false, true] where filled != nil || !large {
          var bytes = CompactCounts<UInt8>(count: length)
          var words = CompactCounts<UInt32>(count: length)
          if let filled {
            bytes.add(large ? 1_000 : 1, at: filled)
            words.add(large ? 5_000_000_000 : 1, at: filled)
          }
          for start in 0...length {
            let first = filled.flatMap { $0 >= start ? $0 : nil }
            if bytes.firstNonZero(from: start) != first || words.firstNonZero(from: start) != first {
              mismatches.append("first from \(start) of \(length), \(String(describing: filled))")
            }
            for count in 0...(length - start) {
              let mask = filled.map { $0 >= start && $0 < start + count ? UInt64(1) << UInt64($0 - start) : 0 } ?? 0
              if bytes.nonzeroCells(from: start, count: count) != mask
                || words.nonzeroCells(from: start, count: count) != mask
              {
                mismatches.append("mask \(start)+\(count) of \(length), \(String(describing: filled))")
              }
            }
          }
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  /// Counts in 1-byte cells, so that sums pass the cell's limit and go to the side table.
  private static func counts(_ count: Int, cells: Int, seed: UInt64, each starts: [Int], width: Int) -> CompactCounts<
    UInt8
  > {
    var generator = SplitMix64(state: seed)
    var counts = CompactCounts<UInt8>(count: count)
    for _ in 0..<cells {
      let start = starts[Int(CompactCountsTests.draw(&generator, below: UInt64(starts.count)))]
      let index = start * width + Int(CompactCountsTests.draw(&generator, below: UInt64(width)))
      counts.add(CompactCountsTests.draw(&generator, below: 300), at: index)
    }
    return counts
  }

  @Test("compact counts: absorbed as merged through busy runs, large counts included")
  func absorbedThroughBusyRuns() {
    let width = 6
    let runs = 40
    let busy = [1, 2, 7, 19, 33, 39]
    // Both sides hold counts past 255 (the side table) in some of the same cells.
    var sum = CompactCountsTests.counts(runs * width, cells: 200, seed: 13, each: busy + [5], width: width)
    var other = CompactCountsTests.counts(runs * width, cells: 200, seed: 14, each: busy, width: width)
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
    let counts = CompactCountsTests.counts(runs * width, cells: 150, seed: 17, each: Array(0..<runs), width: width)
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
}
