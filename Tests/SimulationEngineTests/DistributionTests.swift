import Statistics
import Testing

@testable import SimulationEngine

@Suite("Distributions")
struct DistributionTests {
  /// Every family, with parameters chosen so that the fourth moment is finite (the variance check needs
  /// it), plus the truncated-normal variants that take different sampling paths.
  static let cases: [(String, Distribution)] = [
    ("constant", try! .constant(3.5)),
    ("uniform", try! .uniform(low: -2, high: 6)),
    ("exponential", try! .exponential(mean: 240)),
    ("normal", try! .normal(mean: 14, sd: 3)),
    ("normal lower-truncated near the mean", try! .normal(mean: 14, sd: 3, lower: 12)),
    ("normal lower-truncated far in the tail", try! .normal(mean: 0, sd: 1, lower: 5)),
    ("normal upper-truncated", try! .normal(mean: 0, sd: 2, upper: -1)),
    ("normal upper-truncated above the mean", try! .normal(mean: 0, sd: 2, upper: 1)),
    ("normal truncated to an interval across the mean", try! .normal(mean: 1, sd: 1, lower: 0, upper: 4)),
    ("normal truncated to an interval in the upper tail", try! .normal(mean: 0, sd: 1, lower: 3, upper: 3.5)),
    ("normal truncated to an interval in the lower tail", try! .normal(mean: 0, sd: 1, lower: -6, upper: -4)),
    ("lognormal by median", try! .lognormal(median: 0.25, sigma: 0.5)),
    ("lognormal by mu", try! .lognormal(mu: 1, sigma: 0.3)),
    ("gamma", try! .gamma(shape: 2, scale: 1.5)),
    ("weibull", try! .weibull(scale: 2, shape: 1.5)),
    ("pareto", try! .pareto(shape: 5, scale: 1)),
    ("beta", try! .beta(a: 2, b: 5)),
    ("poisson", try! .poisson(mean: 4)),
    ("bernoulli", try! .bernoulli(probability: 0.3)),
    ("empirical", try! .empirical(values: [1, 2, 3, 5, 8], weights: [5, 4, 3, 2, 1])),
    ("discrete", try! .discrete(weights: [0, 1, 1, 2])),
  ]

  @Test(
    "sample mean and variance lie within 4 standard errors of the analytic values over 100,000 draws",
    arguments: cases.indices)
  func momentsMatch(index: Int) {
    let (name, distribution) = DistributionTests.cases[index]
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 2_026, stream: UInt64(index)))
    let n = 100_000
    var draws = [Double](repeating: 0, count: n)
    for i in 0..<n { draws[i] = distribution.sample(stream) }
    let statistics = RunningStatistics(draws)

    let mean = distribution.mean
    let variance = distribution.variance
    let meanError = (variance / Double(n)).squareRoot()
    if variance == 0 {
      #expect(statistics.mean == mean, "\(name)")
      #expect(statistics.variance == 0, "\(name)")
      return
    }
    #expect(
      abs(statistics.mean - mean) < 4 * meanError,
      "\(name): mean \(statistics.mean), expected \(mean) ± \(4 * meanError)")

    // Standard error of the sample variance: sqrt((m4 - s^4 (n-3)/(n-1)) / n), m4 the fourth central
    // moment (estimated from the sample).
    let m4 = draws.reduce(0) { $0 + pow4($1 - statistics.mean) } / Double(n)
    let s2 = statistics.variance
    let varianceError = ((m4 - s2 * s2 * Double(n - 3) / Double(n - 1)) / Double(n)).squareRoot()
    #expect(
      abs(s2 - variance) < 4 * varianceError,
      "\(name): variance \(s2), expected \(variance) ± \(4 * varianceError)")
  }

  @Test("draws stay inside the support")
  func support() {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 5))
    let interval = try! Distribution.normal(mean: 0, sd: 1, lower: 3, upper: 3.5)
    let lower = try! Distribution.normal(mean: 14, sd: 3, lower: 0)
    let upper = try! Distribution.normal(mean: 0, sd: 2, upper: -1)
    let pareto = try! Distribution.pareto(shape: 2, scale: 7)
    let beta = try! Distribution.beta(a: 0.5, b: 0.5)
    let empirical = try! Distribution.empirical(values: [2, 4], weights: [1, 0])
    for _ in 0..<20_000 {
      #expect((3...3.5).contains(interval.sample(stream)))
      #expect(lower.sample(stream) >= 0)
      #expect(upper.sample(stream) <= -1)
      #expect(pareto.sample(stream) >= 7)
      #expect((0...1).contains(beta.sample(stream)))
      #expect(empirical.sample(stream) == 2, "a value with weight 0 is never drawn")
    }
  }

  @Test("heavy tails report infinite moments")
  func infiniteMoments() throws {
    #expect(try Distribution.pareto(shape: 1, scale: 1).mean == .infinity)
    #expect(try Distribution.pareto(shape: 2, scale: 1).variance == .infinity)
    #expect(try Distribution.pareto(shape: 3, scale: 2).mean == 3)
  }

  static let invalid: [(String, @Sendable () throws(DistributionError) -> Distribution, String)] = [
    ("negative sd", { () throws(DistributionError) in try .normal(mean: 0, sd: -1) }, "sd"),
    ("zero sd", { () throws(DistributionError) in try .normal(mean: 0, sd: 0) }, "sd"),
    ("NaN mean", { () throws(DistributionError) in try .normal(mean: .nan, sd: 1) }, "mean"),
    ("bounds reversed", { () throws(DistributionError) in try .normal(mean: 0, sd: 1, lower: 2, upper: 1) }, "upper"),
    ("no mass", { () throws(DistributionError) in try .normal(mean: 0, sd: 1, lower: 60) }, "lower"),
    ("exponential mean 0", { () throws(DistributionError) in try .exponential(mean: 0) }, "mean"),
    ("exponential infinite", { () throws(DistributionError) in try .exponential(mean: .infinity) }, "mean"),
    ("gamma shape 0", { () throws(DistributionError) in try .gamma(shape: 0, scale: 1) }, "shape"),
    ("gamma scale -1", { () throws(DistributionError) in try .gamma(shape: 1, scale: -1) }, "scale"),
    ("weibull shape 0", { () throws(DistributionError) in try .weibull(scale: 1, shape: 0) }, "shape"),
    ("pareto shape -2", { () throws(DistributionError) in try .pareto(shape: -2, scale: 1) }, "shape"),
    ("beta b 0", { () throws(DistributionError) in try .beta(a: 1, b: 0) }, "b"),
    ("lognormal median 0", { () throws(DistributionError) in try .lognormal(median: 0, sigma: 1) }, "median"),
    ("lognormal sigma NaN", { () throws(DistributionError) in try .lognormal(mu: 0, sigma: .nan) }, "sigma"),
    ("uniform empty", { () throws(DistributionError) in try .uniform(low: 3, high: 3) }, "high"),
    ("poisson negative", { () throws(DistributionError) in try .poisson(mean: -1) }, "mean"),
    ("bernoulli 1.5", { () throws(DistributionError) in try .bernoulli(probability: 1.5) }, "probability"),
    ("constant infinite", { () throws(DistributionError) in try .constant(.infinity) }, "value"),
    ("empirical empty", { () throws(DistributionError) in try .empirical(values: []) }, "values"),
    (
      "empirical weight count", { () throws(DistributionError) in try .empirical(values: [1, 2], weights: [1]) },
      "weights"
    ),
    (
      "empirical negative weight",
      { () throws(DistributionError) in try .empirical(values: [1, 2], weights: [1, -1]) }, "weights[1]"
    ),
    ("empirical zero weights", { () throws(DistributionError) in try .discrete(weights: [0, 0]) }, "weights"),
    ("empirical NaN value", { () throws(DistributionError) in try .empirical(values: [1, .nan]) }, "values[1]"),
  ]

  @Test("invalid parameters are rejected with the parameter named", arguments: invalid.indices)
  func invalidParameters(index: Int) {
    let (label, make, parameter) = DistributionTests.invalid[index]
    do {
      let distribution = try make()
      Issue.record("\(label): accepted as \(distribution)")
    } catch {
      #expect(error.parameter == parameter, "\(label): \(error)")
      #expect(!error.expectation.isEmpty)
      #expect(error.description.contains(error.distribution))
    }
  }
}

private func pow4(_ x: Double) -> Double {
  let square = x * x
  return square * square
}
