import SimulationEngine
import Statistics
import Testing

@testable import Results

/// How much a sample's rate moves within its fitted blocks beyond chance, as the whole fleet's dispersion.
@Suite("Rate moving within blocks")
struct UnresolvedDispersionTests {
  /// A day of Poisson counts whose rate is `low` and `high` in turn, `period` seconds each, with one block over
  /// the whole day.
  static func counts(low: Double, high: Double, period: Int, seed: UInt64) -> (counts: [UInt32], block: RateBlock) {
    let seconds = 86_400
    var counts = [UInt32](repeating: 0, count: seconds)
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed, replication: 0, entity: 0, stream: 1))
    var time = 0.0
    while true {
      // Arrivals at the higher rate, thinned to the lower one in the low stretches.
      time += stream.exponential(mean: 1 / high)
      guard Int(time) < seconds else { break }
      if (Int(time) / period) % 2 == 0 && stream.uniform() >= low / high { continue }
      counts[Int(time)] += 1
    }
    let total = counts.reduce(UInt64(0)) { $0 + UInt64($1) }
    return (counts, RateBlock(start: 0, seconds: seconds, total: total))
  }

  /// What a sample of those counts standing for 50 phones each says of the rate's moves, at the counts' own
  /// dispersion (5 minutes each rate).
  static func unresolved(low: Double, high: Double, seed: UInt64) -> Double {
    let (counts, block) = counts(low: low, high: high, period: 300, seed: seed)
    let dispersion = counts.withUnsafeBufferPointer { DyadicRateFit.dispersion($0) }
    return counts.withUnsafeBufferPointer {
      SampledLoadEstimate.unresolvedDispersion($0, blocks: [block], skipped: nil, dispersion: dispersion, scale: 50)
    }
  }

  @Test("a rate of 1 and 3 in turn every 5 minutes: the variance 1 about the mean 2, times the scale, over it")
  func movingRate() {
    let unresolved = UnresolvedDispersionTests.unresolved(low: 1, high: 3, seed: 3)
    // Known answer: 50 * 1 / 2 = 25. The counts' variance (about 3) is read from 86,400 seconds: its standard
    // error is about sqrt(2 * 3^2 / 86,400) = 0.015, and the dispersion's about as much, so 4 of each is 0.12
    // of the variance 1 (and the 288 jumps add 288 * 4 / 2 / 86,400 = 0.007 to the dispersion's share).
    #expect(abs(unresolved / 25 - 1) < 0.12, "\(unresolved)")
  }

  @Test("a steady rate moves nowhere: within the variance's error of none")
  func steadyRate() {
    let unresolved = UnresolvedDispersionTests.unresolved(low: 2, high: 2, seed: 4)
    // The variance 2 read to about 0.01 (and the dispersion's share likewise): 4 of each, times 50 / 2.
    #expect(unresolved < 0.08 * 25, "\(unresolved)")
  }
}
