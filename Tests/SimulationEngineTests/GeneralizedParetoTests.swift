import Testing

@testable import SimulationEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The generalized Pareto fit by probability-weighted moments recovers known laws.
@Suite("Generalized Pareto tail")
struct GeneralizedParetoTests {
  /// `count` draws of the law of `shape` and `scale`, by its inverse distribution function.
  static func draws(shape: Double, scale: Double, count: Int, seed: UInt64) -> [Double] {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed, replication: 0, entity: 0, stream: 3))
    return (0..<count).map { _ in
      let survival = 1 - stream.uniform()
      return abs(shape) < 1e-9 ? -scale * log(survival) : scale / shape * (pow(survival, -shape) - 1)
    }
  }

  @Test(
    "shape and scale within their sampling error, for a heavy, an exponential and a bounded tail",
    arguments: [(0.3, 2.0), (0.0, 5.0), (-0.2, 1.0)])
  func recovers(_ law: (shape: Double, scale: Double)) throws {
    // With 4,000 excesses the estimators' standard errors are about 0.03 for the shape and 2.5% for the
    // scale (Hosking and Wallis 1987, table 2): five of them is the tolerance.
    let fit = try #require(
      GeneralizedPareto(
        excesses: GeneralizedParetoTests.draws(shape: law.shape, scale: law.scale, count: 4_000, seed: 21)))
    #expect(abs(fit.shape - law.shape) < 0.15, "\(fit)")
    #expect(abs(fit.scale / law.scale - 1) < 0.125, "\(fit)")
    // The quantile inverts the tail: an excess past it has the probability asked for.
    let truth = GeneralizedPareto(shape: law.shape, scale: law.scale)
    let far = truth.quantile(exceedance: 1e-4)
    let survival = law.shape == 0 ? exp(-far / law.scale) : pow(1 + law.shape * far / law.scale, -1 / law.shape)
    #expect(abs(survival - 1e-4) < 1e-9)
  }

  @Test("too few excesses, or none spread, fit nothing")
  func tooFew() {
    #expect(GeneralizedPareto(excesses: [1, 2, 3]) == nil)
    #expect(GeneralizedPareto(excesses: Array(repeating: 0, count: 50)) == nil)
  }
}
