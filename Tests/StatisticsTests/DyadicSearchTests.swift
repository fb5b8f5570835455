import Testing

@testable import SimulationEngine
@testable import Statistics

#if canImport(Glibc)
  import Glibc
#endif

/// The rate fit's search, which keeps a block whole without looking below it when no split could do better,
/// against the plain definition: every node of every stretch visited, kept whole unless its halves cost less.
@Suite("Dyadic rate fit: the search finds the exact best partition")
struct DyadicSearchTests {
  /// The best partition of `counts` by visiting every node (no bound), with the fit's penalty, costs and
  /// joining of skipped-only blocks.
  static func reference(
    _ counts: [UInt32], dispersion: Double, skipped: [Bool]?, penalty perBlock: Double? = nil, shortestLevel: Int = 0
  ) -> [RateBlock] {
    let penalty = (perBlock ?? max(1, log(Double(counts.count)))) * max(1, dispersion)
    func logLikelihood(_ total: UInt64, _ logSeconds: Double) -> Double {
      total == 0 ? 0 : Double(total) * log(Double(total)) - Double(total) * logSeconds - Double(total)
    }
    func seen(_ second: Int) -> Bool { !(skipped?[second] ?? false) }
    var blocks: [RateBlock] = []
    var start = 0
    while start < counts.count {
      let length = min(DyadicRateFit.topSeconds, counts.count - start)
      // (cost, blocks) of the node of `level` from `first` (relative to the stretch).
      func best(_ first: Int, _ level: Int) -> (Double, [RateBlock]) {
        guard first < length else { return (0, []) }
        let width = 1 << level
        if level == 0 {
          let observed = seen(start + first)
          let total = observed ? UInt64(counts[start + first]) : 0
          return (
            observed ? penalty - logLikelihood(total, 0) : 0,
            [RateBlock(start: start + first, seconds: 1, total: total, observed: observed ? 1 : 0)]
          )
        }
        if first + width / 2 >= length && level > shortestLevel { return best(first, level - 1) }
        let end = min(first + width, length)
        let observed = ((start + first)..<(start + end)).filter(seen).count
        let total = ((start + first)..<(start + end)).filter(seen).reduce(UInt64(0)) { $0 + UInt64(counts[$1]) }
        let whole =
          observed == 0
          ? 0 : penalty - logLikelihood(total, observed == width ? Double(level) * M_LN2 : log(Double(observed)))
        let block = [RateBlock(start: start + first, seconds: end - first, total: total, observed: observed)]
        guard level > shortestLevel else { return (whole, block) }
        let (left, leftBlocks) = best(first, level - 1)
        let (right, rightBlocks) = best(first + width / 2, level - 1)
        if left + right < whole { return (left + right, leftBlocks + rightBlocks) }
        return (whole, block)
      }
      blocks += best(0, DyadicRateFit.levels).1
      start += length
    }
    return skipped == nil ? blocks : DyadicRateFit.joiningUnobserved(blocks)
  }

  @Test(
    "the same blocks as visiting every node",
    arguments: [
      (0.05, 1.0, false), (0.05, 1.0, true), (3.0, 1.0, false), (3.0, 2.3, true), (40.0, 1.4, false),
      (40.0, 1.0, true),
    ])
  func sameAsEveryNode(rate: Double, dispersion: Double, skipping: Bool) {
    // Not a whole number of stretches; a drifting rate, a 30-second burst, and (when skipping) a paced walk
    // and a lone skipped second.
    let seconds = 2 * DyadicRateFit.topSeconds + 3_001
    var counts = PerSecondLoadTests.poissonCounts(seconds: seconds, peak: 30 * rate, seed: 7) { second in
      (5_000..<5_030).contains(second) ? 30 * rate : rate * (1 + 0.8 * sin(Double(second) / 1_500))
    }
    var skipped: [Bool]?
    if skipping {
      var marks = [Bool](repeating: false, count: seconds)
      for second in 9_000..<9_040 {
        marks[second] = true
        counts[second] += 500
      }
      marks[seconds - 1] = true
      marks[0] = true
      skipped = marks
    }
    // The fit proper, and a finer one with no block under 4 s (as the sample's estimate fits both).
    let found = counts.withUnsafeBufferPointer { series in
      (skipped ?? []).withUnsafeBufferPointer {
        DyadicRateFit.partitions(
          series, dispersion: dispersion, skipped: skipped == nil ? nil : $0, penaltiesPerBlock: [nil, 2],
          shortestLevels: [0, 2])
      }
    }
    let expected = DyadicSearchTests.reference(counts, dispersion: dispersion, skipped: skipped)
    #expect(found[0] == expected)
    // Not a trivial partition: the burst and the drift split the stretches.
    #expect(expected.count > 3, "\(expected.count) blocks")
    let finer = DyadicSearchTests.reference(
      counts, dispersion: dispersion, skipped: skipped, penalty: 2, shortestLevel: 2)
    #expect(found[1] == finer)
    #expect(finer.count > 3, "\(finer.count) blocks")
  }

  @Test("a second's log-likelihood read from the table is the computed one to the bit")
  func secondLogsMatch() {
    // The fit's expression for one second (`S log S - S log 1 - S`), with its zero read at run time.
    let logSeconds = [0.0].randomElement()!
    let table = DyadicRateFit.secondLogs
    #expect(table.count == 4_096)
    for count in table.indices {
      let plain =
        count == 0 ? 0 : Double(count) * log(Double(count)) - Double(count) * logSeconds - Double(count)
      #expect(table[count].bitPattern == plain.bitPattern, "n = \(count)")
    }
  }
}
