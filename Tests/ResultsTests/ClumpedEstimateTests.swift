import CGSL
import Statistics
import Testing

@testable import Results
@testable import SimulationEngine

/// A sample whose requests come in pairs (an order update's WidgetKit push and Live Activity push) and whose
/// phones send them in bursts: the estimate takes the pairs' law, not a negative binomial's heavier tail, and
/// its rates' errors carry the phones' uneven share of each hour.
@Suite("Clumped requests in a sample")
struct ClumpedEstimateTests {
  /// A day of sample counts: each second singles at `singles` and pairs at `pairs` a second (Poisson).
  static func counts(singles: Double, pairs: Double, seed: UInt64) -> [UInt32] {
    GSL.configure()
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed, replication: 0, entity: 0, stream: 1))
    return (0..<86_400).map { _ in
      UInt32(gsl_ran_poisson(stream.generator, singles) + 2 * gsl_ran_poisson(stream.generator, pairs))
    }
  }

  @Test("pairs: the clump size is 2 and the interval holds the pairs' busiest second, below the negative binomial's")
  func pairs() {
    // The fleet: 2 requests a second, 70% of them in pairs; the sample one in 20 of its phones.
    let (rate, scale) = (2.0, 20.0)
    let (singles, pairs) = (0.3 * rate, 0.35 * rate)
    let counts = ClumpedEstimateTests.counts(singles: singles / scale, pairs: pairs / scale, seed: 7)
    let estimate = counts.withUnsafeBufferPointer { SampledLoadEstimate($0, scale: scale) }
    #expect(estimate.clump == 2)
    let dispersion = (singles + 4 * pairs) / rate
    let truth = PerSecondLoadModel(
      pieces: [.init(rate: rate, seconds: 86_400)], dispersion: dispersion, clump: 2
    ).medianBusiestSecond().value
    let negativeBinomial = PerSecondLoadModel(pieces: [.init(rate: rate, seconds: 86_400)], dispersion: dispersion)
      .medianBusiestSecond().value
    #expect(truth < negativeBinomial)
    #expect(estimate.peakInterval.low <= truth && truth <= estimate.peakInterval.high, "\(estimate.peakInterval)")
    #expect(estimate.peak < negativeBinomial, "\(estimate.peak) against \(negativeBinomial)")
  }

  @Test("clumps are read only where the third moment's upper end is below the negative binomial's")
  func clumpsFromEnoughRequests() {
    // Pairs and singles, about 60% pairs: D = 1.75, third cumulant per request about 3.2 against 4.375 for a
    // negative binomial. From 35 seconds with requests its standard error is 0.65: not enough; from 500, 0.17.
    func size(pairs: Int, singles: Int) -> Int? {
      var counts = [UInt32](repeating: 0, count: 86_400)
      for index in 0..<pairs { counts[index * 100] = 2 }
      for index in 0..<singles { counts[index * 100 + 50] = 1 }
      let block = RateBlock(start: 0, seconds: 86_400, total: UInt64(2 * pairs + singles))
      return counts.withUnsafeBufferPointer {
        SampledLoadEstimate.clumpSize($0, blocks: [block], skipped: nil, dispersion: 1.75)
      }
    }
    #expect(size(pairs: 20, singles: 15) == nil)
    #expect(size(pairs: 300, singles: 200) == 2)
  }

  @Test("a block's variance takes each hour's spread in the share of its seconds the block holds")
  func blockVariance() {
    let spread = [3_600.0, 7_200.0]
    // Half of hour 0 and a quarter of hour 1, with 100 requests at a dispersion of 1.5.
    let block = RateBlock(start: 1_800, seconds: 2_700, total: 100)
    let variance = SampledLoadEstimate.blockVariance(block, dispersion: 1.5, phoneSpread: spread)
    #expect(abs(variance - (150 + 1_800 + 1_800)) < 1e-9)
    #expect(SampledLoadEstimate.blockVariance(block, dispersion: 1.5, phoneSpread: []) == 150)
  }

  @Test("the spread is what the phones' squares hold beyond the dispersion; none for phones alike")
  func spreadFromSquares() {
    // A day whose hour 0 holds 100 requests: 10 phones with 10 each (alike), or one phone with all of them.
    var counts = [UInt32](repeating: 0, count: 86_400)
    for second in 0..<100 { counts[second * 30] = 1 }
    var hours = [UInt64](repeating: 0, count: 24)
    hours[0] = 10 * 100
    let alike = counts.withUnsafeBufferPointer {
      PhoneSpread($0, squares: PhoneSpread.Squares(phones: 10, hours: hours, days: [10 * 100]), dispersion: 1)
    }
    #expect(alike.hours.allSatisfy { $0 == 0 } && alike.level == 0)
    hours[0] = 100 * 100
    let one = counts.withUnsafeBufferPointer {
      PhoneSpread($0, squares: PhoneSpread.Squares(phones: 10, hours: hours, days: [100 * 100]), dispersion: 1)
    }
    #expect(abs(one.hours[0] - (10_000 - 1_000 - 100)) < 1e-9)
    #expect(one.level == 0)
  }

  @Test("phones busier than others all day share their spread across the hours: the sample's level")
  func levelFromDays() {
    // 10 phones, 24 requests each hour: phone 0 makes 15 of them every hour, the other nine one each.
    var counts = [UInt32](repeating: 0, count: 86_400)
    for hour in 0..<24 { for request in 0..<24 { counts[hour * 3_600 + request * 100] = 1 } }
    let hours = [UInt64](repeating: 15 * 15 + 9, count: 24)
    let day: UInt64 = 360 * 360 + 9 * 24 * 24
    let spread = counts.withUnsafeBufferPointer {
      PhoneSpread($0, squares: PhoneSpread.Squares(phones: 10, hours: hours, days: [day]), dispersion: 1)
    }
    // An hour: 234 - 24^2 / 10 = 176.4 about the mean, 152.4 beyond the dispersion's 24.
    #expect(spread.hours.allSatisfy { abs($0 - 152.4) < 1e-9 })
    // The day: 129,600 + 5,184 - 576^2 / 10 = 101,606.4; its hours' 24 * 176.4 = 4,233.6; the rest over 576^2.
    #expect(abs(spread.level - (101_606.4 - 4_233.6) / (576.0 * 576.0)) < 1e-12)
    // Two such days: each day's blocks are off by as much, not half as much.
    let twice = (counts + counts).withUnsafeBufferPointer {
      PhoneSpread($0, squares: PhoneSpread.Squares(phones: 10, hours: hours + hours, days: [day, day]), dispersion: 1)
    }
    #expect(abs(twice.level - spread.level) < 1e-12)
  }
}
