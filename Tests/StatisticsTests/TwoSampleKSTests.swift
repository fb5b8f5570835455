import SimulationEngine
import Statistics
import Testing

@Suite struct TwoSampleKSTests {
  @Test func distanceOfKnownSamples() {
    #expect(TwoSampleKS([1, 2, 3], [4, 5, 6]).distance == 1)
    #expect(TwoSampleKS([1, 2, 3], [1, 2, 3]).distance == 0)
    #expect(TwoSampleKS([1, 2, 3], [1, 2, 3]).p == 1)
    // Steps at 1 and 2: F_a = 1/2, 1; F_b = 1/4, 1 (ties stepped over together).
    #expect(TwoSampleKS([1, 2], [1, 2, 2, 2]).distance == 0.25)
  }

  /// Counting independent units instead of values: the same distance, a p-value from fewer units.
  @Test func clusteredSamplesCountTheirUnits() {
    let a = (0..<300).map { Double($0 % 30) }
    let b = (0..<300).map { Double($0 % 30) + 3 }
    let plain = TwoSampleKS(a, b)
    let clustered = TwoSampleKS(a, b, independent: (10, 10))
    #expect(plain.distance == clustered.distance)
    #expect(
      abs(clustered.p - TwoSampleKS.kolmogorovTail((5.0.squareRoot() + 0.12 + 0.11 / 5.0.squareRoot()) * 0.1)) < 1e-12)
    #expect(clustered.p > plain.p)
  }

  @Test func kolmogorovTailMatchesTables() {
    // Q_KS(x) = P(K > x): 0.2700 at x = 1, 0.0500 at 1.3581, 0.0100 at 1.6276.
    #expect(abs(TwoSampleKS.kolmogorovTail(1) - 0.26999967) < 1e-6)
    #expect(abs(TwoSampleKS.kolmogorovTail(1.358_099) - 0.05) < 1e-4)
    #expect(abs(TwoSampleKS.kolmogorovTail(1.627_624) - 0.01) < 1e-4)
  }

  /// Samples of one distribution are rejected at 5% about 5% of the time: over 400 seeded pairs of 200
  /// exponential draws, the rejections fall within 3 standard deviations of 20 (Binomial(400, 0.05)).
  @Test func rejectsAtItsLevelUnderTheNull() {
    var rejections = 0
    for seed in 0..<400 {
      let stream = RandomStream(seed: StreamSeed(scenarioSeed: UInt64(seed)))
      let a = (0..<200).map { _ in stream.exponential(mean: 60) }
      let b = (0..<200).map { _ in stream.exponential(mean: 60) }
      if TwoSampleKS(a, b).p < 0.05 { rejections += 1 }
    }
    let sd = (400 * 0.05 * 0.95).squareRoot()
    #expect(abs(Double(rejections) - 20) <= 3 * sd, "\(rejections) rejections of 400")
  }

  /// A shifted distribution is rejected: exponential means 60 and 90 with 500 draws each.
  @Test func rejectsADifferentDistribution() {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 7))
    let a = (0..<500).map { _ in stream.exponential(mean: 60) }
    let b = (0..<500).map { _ in stream.exponential(mean: 90) }
    let test = TwoSampleKS(a, b)
    #expect(test.p < 0.001)
    // The population distance is max |e^(-x/60) - e^(-x/90)| = 0.1481 at x = 60 ln(1.5) * 3 = 73 s.
    let bound: Double = 1.63 * (2.0 / 500).squareRoot()
    #expect(abs(test.distance - 0.1481) < bound)
  }
}
