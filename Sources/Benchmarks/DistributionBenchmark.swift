import SimulationEngine

/// Cost of one draw from each distribution family, and of one uniform draw from each GSL generator.
public enum DistributionBenchmark {
  /// One representative of every family, with parameters like those scenarios use.
  public static func catalog() -> [(name: String, distribution: Distribution)] {
    // Literal, valid parameters: the factories cannot throw here.
    [
      ("constant", try! .constant(1)),
      ("uniform", try! .uniform(low: 0, high: 10)),
      ("exponential", try! .exponential(mean: 240)),
      ("normal", try! .normal(mean: 14, sd: 3)),
      ("normal_truncated", try! .normal(mean: 14, sd: 3, lower: 0)),
      ("lognormal", try! .lognormal(median: 0.25, sigma: 0.5)),
      ("gamma", try! .gamma(shape: 2, scale: 1.5)),
      ("weibull", try! .weibull(scale: 1, shape: 1.5)),
      ("pareto", try! .pareto(shape: 3, scale: 1)),
      ("beta", try! .beta(a: 2, b: 5)),
      ("poisson", try! .poisson(mean: 4)),
      ("bernoulli", try! .bernoulli(probability: 0.3)),
      ("empirical", try! .empirical(values: [1, 2, 3, 5, 8, 13, 21, 34], weights: [8, 7, 6, 5, 4, 3, 2, 1])),
    ]
  }

  /// Nanoseconds per draw of `distribution`, over `draws` draws.
  public static func nanosecondsPerDraw(_ distribution: Distribution, draws: Int, seed: UInt64 = 1) -> Double {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed))
    var sum = 0.0
    let stopwatch = Stopwatch()
    for _ in 0..<draws {
      sum += distribution.sample(stream)
    }
    let elapsed = stopwatch.elapsedNanoseconds
    keepAlive(sum)
    return elapsed / Double(draws)
  }

  /// Nanoseconds per `gsl_rng_uniform` draw from a generator of `kind`.
  public static func nanosecondsPerUniform(_ kind: RandomGeneratorKind, draws: Int, seed: UInt64 = 1) -> Double {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed), kind: kind)
    var sum = 0.0
    let stopwatch = Stopwatch()
    for _ in 0..<draws {
      sum += stream.uniform()
    }
    let elapsed = stopwatch.elapsedNanoseconds
    keepAlive(sum)
    return elapsed / Double(draws)
  }
}
