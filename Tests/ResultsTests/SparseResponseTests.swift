import SimulationEngine
import Statistics
import Testing

@testable import Results

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fleet event's response that a sample holds only a handful of requests a second of: its fetches decay
/// over a minute, so the fit proper takes the response as one long block, below its first seconds.
@Suite("A response a sample holds a handful of")
struct SparseResponseTests {
  static let seconds = 8_192
  static let start = 4_000
  static let scale = 100.0

  /// The sample's requests per second: 0.2 a second, and from `start` a response of 8 a second decaying
  /// with a mean of 30 s (a story's fetches after its pushes' delays).
  static func rate(_ second: Int) -> Double {
    second < start ? 0.2 : 0.2 + 8 * exp(-Double(second - start) / 30)
  }

  /// The sample's counts per second for `seed` (a Poisson process at ``rate(_:)``, thinned at 8.2 a second).
  static func counts(seed: UInt64) -> [UInt32] {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed, replication: 0, entity: 0, stream: 1))
    var counts = [UInt32](repeating: 0, count: seconds)
    var time = 0.0
    while true {
      time += stream.exponential(mean: 1 / 8.2)
      let second = Int(time)
      guard second < seconds else { return counts }
      if stream.uniform() * 8.2 < rate(second) { counts[second] += 1 }
    }
  }

  @Test("named: its busiest second about the fleet's, its interval holding the fleet's in 95 of 100")
  func namedResponse() {
    // The whole fleet's median busiest second: its counts Poisson at the rate times the scale.
    let pieces = (0..<SparseResponseTests.seconds).map {
      PerSecondLoadModel.Piece(rate: SparseResponseTests.scale * SparseResponseTests.rate($0), seconds: 1)
    }
    let truth = PerSecondLoadModel(pieces: pieces, dispersion: 1).medianBusiestSecond().value
    let response = SparseResponseTests.start..<(SparseResponseTests.start + 600)
    var ratios: [Double] = []
    var fitted: [Double] = []
    var held = 0
    let runs = 100
    for seed in 1...UInt64(runs) {
      let counts = SparseResponseTests.counts(seed: seed)
      #expect(Double(counts.max() ?? 0) < SampledLoadEstimate.fewestPeakRequests)
      let estimate = counts.withUnsafeBufferPointer {
        SampledLoadEstimate($0, scale: SparseResponseTests.scale, fetches: true) { response.contains($0) }
      }
      ratios.append(estimate.peak / truth)
      if estimate.peakInterval.low <= truth && truth <= estimate.peakInterval.high { held += 1 }
      // The fit proper: what a second the scenario does not name gets.
      let unnamed = counts.withUnsafeBufferPointer { SampledLoadEstimate($0, scale: SparseResponseTests.scale) }
      fitted.append(unnamed.peak / truth)
    }
    // A 95% interval: at least 95 of 100, less 3.3 standard errors of a binomial count (7).
    #expect(held >= 88, "held in \(held) of \(runs)")
    // Each estimate stands on about 8 requests of its busiest second, a relative error of 1/sqrt(8): the
    // median of 100 is off by 1.25 times that over 10, beyond 3.3 times that in one run of a thousand.
    let error = 1.25 * (1 / 8.0.squareRoot()) / Double(runs).squareRoot()
    let median = ratios.sorted()[runs / 2]
    #expect(abs(median - 1) < 3.3 * error, "median estimate / fleet \(median)")
    // The fit proper averages the decay over a long block: lower.
    let fittedMedian = fitted.sorted()[runs / 2]
    #expect(fittedMedian < median, "\(fittedMedian) against \(median)")
  }
}
