import CGSL
import Testing

@testable import SimulationEngine
@testable import Statistics

#if canImport(Glibc)
  import Glibc
#endif

/// Singles and clumps of requests: the law against sums of Poisson probabilities written out, its moments,
/// the clump size the moments give, and the busiest second of requests that come in pairs.
@Suite("Requests in clumps")
struct ClumpedCountTests {
  /// `P(N1 + size * N2 = n)` summed term by term over every `j <= n / size`.
  static func direct(_ n: Int, singles: Double, clumps: Double, size: Int) -> Double {
    (0...(n / size)).reduce(0.0) {
      $0 + gsl_ran_poisson_pdf(UInt32($1), clumps) * gsl_ran_poisson_pdf(UInt32(n - size * $1), singles)
    }
  }

  @Test("probabilities, distribution and tail agree with the sum of every term, and the moments are the given")
  func againstTerms() {
    GSL.configure()
    for (rate, dispersion, size) in [(3.0, 1.7, 2), (40.0, 2.5, 3), (0.2, 1.9, 2), (900.0, 1.3, 4)] {
      let law = ClumpedCount(rate: rate, dispersion: dispersion, size: size)
      var (mean, square, below) = (0.0, 0.0, 0.0)
      let top = Int(rate + 40 * (dispersion * rate).squareRoot() + 40)
      for n in 0...top {
        let p = law.probability(n)
        let expected = ClumpedCountTests.direct(n, singles: law.singles, clumps: law.clumps, size: size)
        #expect(abs(p - expected) <= 1e-12 * expected + 1e-300, "\(rate) \(n)")
        below += p
        #expect(abs(law.atMost(n) - below) < 1e-11, "\(rate) \(n)")
        #expect(abs(law.above(n) - (1 - below)) < 1e-11, "\(rate) \(n)")
        mean += Double(n) * p
        square += Double(n * n) * p
      }
      #expect(abs(mean - rate) < 1e-9 * rate)
      #expect(abs(square - mean * mean - dispersion * rate) < 1e-8 * dispersion * rate)
    }
  }

  @Test("a far tail is read to its own precision, not as one minus nearly one")
  func farTail() {
    GSL.configure()
    let law = ClumpedCount(rate: 2, dispersion: 2, size: 2)
    // All pairs: N = 2 N2 with N2 Poisson of mean 1, so P(N > 41) = P(N2 > 20).
    let exact = gsl_cdf_poisson_Q(20, 1)
    #expect(exact < 1e-18)
    #expect(abs(law.above(41) / exact - 1) < 1e-9)
  }

  @Test("singles and clumps far in the tail: the tail against the sum of every term's probability past it")
  func mixedFarTail() {
    GSL.configure()
    // Many clumps: the sums stop 12 standard deviations past their mean, far short of n / size.
    for (rate, dispersion, size) in [(6.0, 1.6, 2), (1e4, 1.1, 2), (400.0, 2.2, 3)] {
      let law = ClumpedCount(rate: rate, dispersion: dispersion, size: size)
      let deviation = (dispersion * rate).squareRoot()
      for sigmas in [4.0, 8.0, 12.0] {
        let n = Int(rate + sigmas * deviation)
        // Every clumps' count up to n / size, each with the singles' own tail: the tail written out.
        var exact = gsl_cdf_poisson_Q(UInt32(n / size), law.clumps)
        for j in 0...(n / size) {
          exact += gsl_ran_poisson_pdf(UInt32(j), law.clumps) * gsl_cdf_poisson_Q(UInt32(n - size * j), law.singles)
        }
        #expect(exact > 1e-40)
        #expect(abs(law.above(n) / exact - 1) < 1e-9, "\(rate) \(sigmas): \(law.above(n)) against \(exact)")
        #expect(abs(law.atMost(n) - (1 - exact)) < 1e-12, "\(rate) \(sigmas)")
      }
    }
  }

  @Test("the clump size the dispersion and third cumulant give")
  func sizeFromMoments() {
    // Singles and pairs, 40% singles: E[K] = 1.6, E[K^2] = 2.8, E[K^3] = 5.2.
    #expect(ClumpedCount.size(dispersion: 2.8 / 1.6, skew: 5.2 / 1.6) == 2)
    // Singles and fives.
    let (k1, k2, k3) = (0.5 + 0.5 * 5, 0.5 + 0.5 * 25, 0.5 + 0.5 * 125)
    #expect(ClumpedCount.size(dispersion: k2 / k1, skew: k3 / k1) == 5)
    // As skewed as a negative binomial of the same dispersion: not clumps.
    #expect(ClumpedCount.size(dispersion: 1.8, skew: 1.8 * 2.6) == nil)
    // Too close to Poisson to tell.
    #expect(ClumpedCount.size(dispersion: 1.02, skew: 1.3) == nil)
    // Less skewed than any mix of singles and pairs: pairs at least, and never below the dispersion.
    #expect(ClumpedCount.size(dispersion: 1.5, skew: 2.0) == 2)
    #expect(ClumpedCount.size(dispersion: 2.6, skew: 6.8) == 3)
  }

  @Test("pairs only: the busiest second is twice the busiest of half the rate, lower than the negative binomial's")
  func pairsBusiestSecond() {
    GSL.configure()
    let (rate, seconds) = (3.0, 86_400)
    let pairs = PerSecondLoadModel(pieces: [.init(rate: rate, seconds: seconds)], dispersion: 2, clump: 2)
    #expect(pairs.clump == 2)
    var median = 0
    while Double(seconds) * log(gsl_cdf_poisson_P(UInt32(median), rate / 2)) < log(0.5) { median += 1 }
    #expect(pairs.medianBusiestSecond().value == Double(2 * median))
    var p99 = 0
    while gsl_cdf_poisson_P(UInt32(p99), rate / 2) < 0.99 { p99 += 1 }
    #expect(pairs.quantile(0.99).value == Double(2 * p99))
    let negativeBinomial = PerSecondLoadModel(pieces: [.init(rate: rate, seconds: seconds)], dispersion: 2)
    #expect(negativeBinomial.medianBusiestSecond().value > pairs.medianBusiestSecond().value + 1)
  }

  @Test("clumps are left out where they cannot be summed: counts in units, or more clumps than the sums allow")
  func clumpsLeftOut() {
    let many = PerSecondLoadModel(pieces: [.init(rate: 1e6, seconds: 10)], dispersion: 2, clump: 2)
    #expect(many.clump == nil)
    let wide = PerSecondLoadModel(pieces: [.init(rate: 10, seconds: 10)], dispersion: 3, clump: 2)
    #expect(wide.clump == nil)
  }
}
