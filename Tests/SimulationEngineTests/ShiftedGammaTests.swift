import Testing

@testable import SimulationEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The gamma law shifted to a sum's first three cumulants.
@Suite("Shifted gamma")
struct ShiftedGammaTests {
  @Test("an exponential's cumulants give the exponential back: no shift, and its quantiles exactly")
  func exponential() throws {
    // An exponential of mean 3: cumulants 3, 9, 54; P(X > x) = exp(-x / 3).
    let law = try #require(ShiftedGamma(mean: 3, variance: 9, thirdCumulant: 54))
    #expect(abs(law.shape - 1) < 1e-12 && abs(law.scale - 3) < 1e-12 && abs(law.shift) < 1e-12)
    for tail in [0.5, 1e-3, 1e-7] {
      #expect(abs(law.quantile(exceedance: tail) / (-3 * log(tail)) - 1) < 1e-9, "tail \(tail)")
    }
  }

  @Test("a Poisson count's cumulants (all equal to its mean) keep its skew: beyond the normal's quantile")
  func skewBeyondNormal() throws {
    // Poisson(100): P(N > 150) = 1.2e-6 and P(N > 151) = 8.0e-7, so its 1e-6 upper quantile is 151; the
    // normal's of the same mean and variance is 147.5 (4.753 standard deviations).
    let law = try #require(ShiftedGamma(mean: 100, variance: 100, thirdCumulant: 100))
    let quantile = law.quantile(exceedance: 1e-6)
    #expect(quantile > 100 + 4.753 * 10 && abs(quantile - 151) < 1, "\(quantile)")
  }

  @Test("no law without a variance or a skew")
  func degenerate() {
    #expect(ShiftedGamma(mean: 5, variance: 0, thirdCumulant: 1) == nil)
    #expect(ShiftedGamma(mean: 5, variance: 2, thirdCumulant: 0) == nil)
  }
}
