import CGSL
import Testing

@testable import SimulationEngine
@testable import Statistics

#if canImport(Glibc)
  import Glibc
#endif

/// The fit of a rate to counts per second and the fleet's per-second distribution it gives: known answers
/// with tolerances from the counts' own sampling error.
@Suite("Per-second load from a sample")
struct PerSecondLoadTests {
  /// Counts per second of a Poisson process of `rate(t)` per second (by exponential gaps, thinned at
  /// `peak`), `clusters` requests at each event.
  static func poissonCounts(seconds: Int, peak: Double, clusters: UInt32 = 1, seed: UInt64, rate: (Int) -> Double)
    -> [UInt32]
  {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed, replication: 0, entity: 0, stream: 1))
    var counts = [UInt32](repeating: 0, count: seconds)
    var time = 0.0
    while true {
      time += stream.exponential(mean: 1 / peak)
      let second = Int(time)
      guard second < seconds else { return counts }
      if stream.uniform() * peak < rate(second) { counts[second] += clusters }
    }
  }

  @Test("a constant rate is one block a stretch, at the rate within its 99.9% interval")
  func constantRate() {
    let seconds = 86_400
    let counts = PerSecondLoadTests.poissonCounts(seconds: seconds, peak: 3, seed: 1) { _ in 3 }
    let blocks = counts.withUnsafeBufferPointer { DyadicRateFit.blocks($0, dispersion: 1) }
    #expect(blocks.reduce(0) { $0 + $1.seconds } == seconds)
    // 86,400 s is 11 stretches of at most 8,192 s: a split that only noise explains is rare.
    #expect(blocks.count <= 13, "\(blocks.count) blocks")
    for block in blocks {
      // Poisson: the block's mean count is within 3.3 standard errors of 3 (99.9%).
      let error = (3 / Double(block.seconds)).squareRoot()
      #expect(abs(block.rate - 3) < 3.3 * error, "\(block)")
    }
  }

  @Test("a 20-second burst at 40 times the rate keeps its edges to the second")
  func burstStaysSharp() {
    let burst = 50_000..<50_020
    let counts = PerSecondLoadTests.poissonCounts(seconds: 86_400, peak: 80, seed: 2) { burst.contains($0) ? 80 : 2 }
    let blocks = counts.withUnsafeBufferPointer { DyadicRateFit.blocks($0, dispersion: 1) }
    let inside = blocks.filter { burst.contains($0.start) }
    #expect(inside.reduce(0) { $0 + $1.seconds } == burst.count, "\(inside)")
    #expect(inside.allSatisfy { $0.start + $0.seconds <= burst.upperBound })
    let total = inside.reduce(UInt64(0)) { $0 + $1.total }
    // 1,600 counts expected: within 3.3 standard errors (40).
    let bound: Double = 3.3 * 40
    #expect(abs(Double(total) - 1_600) < bound, "\(total)")
  }

  @Test("dispersion: 1 for Poisson counts, the cluster size for clusters, a drifting rate adds nothing")
  func dispersion() {
    let seconds = 200_000
    func drift(_ second: Int) -> Double { 2 + 1.5 * sin(Double(second) / 4_000) }
    let poisson = PerSecondLoadTests.poissonCounts(seconds: seconds, peak: 3.5, seed: 3, rate: drift)
    let pairs = PerSecondLoadTests.poissonCounts(seconds: seconds, peak: 3.5, clusters: 2, seed: 4, rate: drift)
    let one = poisson.withUnsafeBufferPointer { DyadicRateFit.dispersion($0) }
    let two = pairs.withUnsafeBufferPointer { DyadicRateFit.dispersion($0) }
    // The estimator's relative standard error is about sqrt(3 / seconds) here: 0.4%; 2% is over 5 of them.
    #expect(one >= 1 && one < 1.02, "\(one)")
    #expect(abs(two - 2) < 0.04, "\(two)")
  }

  @Test("one rate: the p99 and the busiest second are the Poisson quantile and maximum")
  func oneRate() {
    GSL.configure()
    let (rate, seconds) = (40.0, 100_000)
    let model = PerSecondLoadModel(pieces: [.init(rate: rate, seconds: seconds)], dispersion: 1)
    // The smallest n with P(N <= n) >= 0.99, and with P(N <= n)^seconds >= 1/2.
    var p99 = 0
    while gsl_cdf_poisson_P(UInt32(p99), rate) < 0.99 { p99 += 1 }
    var median = 0
    while Double(seconds) * log(gsl_cdf_poisson_P(UInt32(median), rate)) < log(0.5) { median += 1 }
    let (quantile, weights) = model.quantile(0.99)
    #expect(quantile == Double(p99))
    let weightSum: Double = weights.reduce(0, +)
    #expect(abs(weightSum - 1) < 1e-12)
    #expect(model.medianBusiestSecond().value == Double(median))
    #expect(model.busiestSecond(0.025) <= Double(median) && model.busiestSecond(0.975) >= Double(median))
  }

  @Test("counts past 32 bits (bytes of a million phones) are counted in units: the normal law's maximum")
  func countsInUnits() {
    GSL.configure()
    // A second of a million phones' bytes: 2.4e10 B at a dispersion of 5e4 B, over a day.
    let (rate, dispersion, seconds) = (2.4e10, 5e4, 86_400)
    let model = PerSecondLoadModel(pieces: [.init(rate: rate, seconds: seconds)], dispersion: dispersion)
    #expect(model.unit > 1 && model.unit < dispersion)
    let deviation = (dispersion * rate).squareRoot()
    // A negative binomial of size 5e5 is normal to a skew of 0.003, which moves these quantiles by under 0.02
    // standard deviations; counting in units of 16 B moves them by under 1e-6 of one.
    func normalMaximum(_ p: Double) -> Double { rate + deviation * gsl_cdf_ugaussian_Pinv(pow(p, 1 / Double(seconds))) }
    #expect(abs(model.medianBusiestSecond().value - normalMaximum(0.5)) < 0.02 * deviation)
    #expect(abs(model.busiestSecond(0.975) - normalMaximum(0.975)) < 0.02 * deviation)
    #expect(abs(model.quantile(0.99).value - (rate + deviation * gsl_cdf_ugaussian_Pinv(0.99))) < 0.02 * deviation)
    #expect(abs(model.shareAtMost(rate) - 0.5) < 0.01)
    // One piece moves the maximum one for one; the derivative is taken over a step of one unit, which is
    // 1e-6 of a standard deviation: off by about that share of the pmf's slope across it.
    let weightSum: Double = model.medianBusiestSecond().sensitivities.reduce(0, +)
    #expect(abs(weightSum - 1) < 1e-3)
  }

  @Test("the busiest second comes from the busiest pieces; a tenfold dispersion widens it")
  func mixture() {
    let quiet = PerSecondLoadModel.Piece(rate: 10, seconds: 86_000)
    let busy = PerSecondLoadModel.Piece(rate: 1_000, seconds: 400)
    let model = PerSecondLoadModel(pieces: [quiet, busy], dispersion: 1)
    let (peak, weights) = model.medianBusiestSecond()
    // Sorted busiest first: the busy piece carries all the sensitivity.
    #expect(model.order == [1, 0])
    #expect(weights[0] > 0.999 && weights[1] < 1e-9)
    // 1,000 + about 3 standard deviations for the maximum of 400 draws.
    #expect(peak > 1_000 + 2.5 * 1_000.0.squareRoot() && peak < 1_000 + 3.5 * 1_000.0.squareRoot())
    let wide = PerSecondLoadModel(pieces: [quiet, busy], dispersion: 10)
    #expect(wide.medianBusiestSecond().value > peak + 100)
    // The p99 falls among the quiet seconds (99.5% of them).
    #expect(model.quantile(0.99).value < 25)
  }

  @Test("skipped seconds are left out of the fit and covered by the blocks around them")
  func skippedSeconds() {
    var counts = PerSecondLoadTests.poissonCounts(seconds: 86_400, peak: 3, seed: 5) { _ in 3 }
    // A fan-out: 100 seconds of 2 counts each, and a lone second of 200, both skipped.
    var skipped = [Bool](repeating: false, count: counts.count)
    for second in 40_000..<40_100 {
      counts[second] = 2
      skipped[second] = true
    }
    counts[0] = 200
    skipped[0] = true
    let blocks = counts.withUnsafeBufferPointer { series in
      skipped.withUnsafeBufferPointer { DyadicRateFit.blocks(series, dispersion: 1, skipped: $0) }
    }
    // Every second in one block, in order.
    var next = 0
    for block in blocks {
      #expect(block.start == next)
      next += block.seconds
    }
    #expect(next == counts.count)
    #expect(blocks.allSatisfy { $0.observed > 0 })
    #expect(blocks.count <= 13, "\(blocks.count) blocks")
    for block in blocks {
      // As if the skipped seconds were not there: the rate around, within 3.3 standard errors of 3.
      let error = (3 / Double(block.observed)).squareRoot()
      #expect(abs(block.rate - 3) < 3.3 * error, "\(block)")
    }
  }

  @Test("a certain count in a piece adds to its values: the p99 and busiest second move by it, off the lattice")
  func certainCounts() {
    let (rate, seconds, shift) = (40.0, 1_000, 1_234.5)
    for dispersion in [1.0, 1.7] {
      let plain = PerSecondLoadModel(pieces: [.init(rate: rate, seconds: seconds)], dispersion: dispersion)
      let shifted = PerSecondLoadModel(
        pieces: [.init(rate: rate, seconds: seconds, shift: shift)], dispersion: dispersion)
      #expect(abs(shifted.quantile(0.99).value - (plain.quantile(0.99).value + shift)) < 1e-6)
      #expect(abs(shifted.medianBusiestSecond().value - (plain.medianBusiestSecond().value + shift)) < 1e-6)
      #expect(abs(shifted.busiestSecond(0.975) - (plain.busiestSecond(0.975) + shift)) < 1e-6)
    }
    // A fan-out of 20,000 a second for 100 s over a day at 10 a second: its count is the busiest second, exactly,
    // and it moves the busiest second one for one.
    let day = PerSecondLoadModel.Piece(rate: 10, seconds: 86_300)
    let walk = PerSecondLoadModel.Piece(rate: 0, seconds: 100, shift: 20_000)
    let model = PerSecondLoadModel(pieces: [day, walk], dispersion: 1)
    let (peak, weights) = model.medianBusiestSecond()
    #expect(peak == 20_000)
    #expect(model.order == [1, 0] && weights == [1, 0])
    #expect(model.busiestSecond(0.025) == 20_000 && model.busiestSecond(0.975) == 20_000)
    // 100 of 86,400 seconds: the p99 is the day's.
    #expect(model.quantile(0.99).value == PerSecondLoadModel(pieces: [day], dispersion: 1).quantile(0.99).value)
  }

  @Test("a search started near the figure finds what the search from above finds")
  func hintedSearch() {
    GSL.configure()
    let pieces: [PerSecondLoadModel.Piece] = [
      .init(rate: 3, seconds: 40_000), .init(rate: 40, seconds: 3_000), .init(rate: 0, seconds: 100),
      .init(rate: 900, seconds: 20),
    ]
    for model in [
      PerSecondLoadModel(pieces: pieces, dispersion: 1), PerSecondLoadModel(pieces: pieces, dispersion: 1.8),
      PerSecondLoadModel(pieces: pieces, dispersion: 1.7, clump: 2),
    ] {
      for p in [0.5, 0.9, 0.99, 0.999] {
        let quantile = model.quantile(p).value
        let busiest = model.busiestSecond(p)
        for hint in [-5.0, 0, 1, quantile - 3, quantile, quantile + 1, 2 * quantile, 1e6, 1e12] {
          #expect(model.quantile(p, near: hint).value == quantile, "\(p) from \(hint)")
          #expect(model.busiestSecond(p, near: hint) == busiest, "\(p) from \(hint)")
        }
      }
    }
  }
}
