import CGSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Distribution {
  /// The analytic mean; `.infinity` where it diverges (Pareto with shape <= 1).
  public var mean: Double { moments.mean }

  /// The analytic variance; `.infinity` where it diverges (Pareto with shape <= 2).
  public var variance: Double { moments.variance }

  /// Analytic mean and variance, from the standard formulas for each family.
  var moments: (mean: Double, variance: Double) {
    switch shape {
    case .constant(let value):
      return (value, 0)
    case .uniform(let low, let high):
      return ((low + high) / 2, (high - low) * (high - low) / 12)
    case .exponential(let mean):
      return (mean, mean * mean)
    case .normal(let mean, let sd):
      return (mean, sd * sd)
    case .truncatedNormal(let truncated):
      return truncated.moments
    case .lognormal(let mu, let sigma):
      let s2 = sigma * sigma
      return (exp(mu + s2 / 2), expm1(s2) * exp(2 * mu + s2))
    case .gamma(let shape, let scale):
      return (shape * scale, shape * scale * scale)
    case .weibull(let scale, let shape):
      let g1 = gsl_sf_gamma(1 + 1 / shape)
      let g2 = gsl_sf_gamma(1 + 2 / shape)
      return (scale * g1, scale * scale * (g2 - g1 * g1))
    case .pareto(let shape, let scale):
      let mean = shape > 1 ? shape * scale / (shape - 1) : .infinity
      let variance =
        shape > 2 ? scale * scale * shape / ((shape - 1) * (shape - 1) * (shape - 2)) : .infinity
      return (mean, variance)
    case .beta(let a, let b):
      return (a / (a + b), a * b / ((a + b) * (a + b) * (a + b + 1)))
    case .poisson(let mean):
      return (mean, mean)
    case .bernoulli(let probability):
      return (probability, probability * (1 - probability))
    case .empirical:
      guard let table = owner else { return (.nan, .nan) }
      var mean = 0.0
      for (value, probability) in zip(table.values, table.probabilities) { mean += value * probability }
      var variance = 0.0
      for (value, probability) in zip(table.values, table.probabilities) {
        variance += probability * (value - mean) * (value - mean)
      }
      return (mean, variance)
    }
  }

  /// The family's name as written in scenario files.
  public var familyName: String {
    switch shape {
    case .constant: "constant"
    case .uniform: "uniform"
    case .exponential: "exponential"
    case .normal, .truncatedNormal: "normal"
    case .lognormal: "lognormal"
    case .gamma: "gamma"
    case .weibull: "weibull"
    case .pareto: "pareto"
    case .beta: "beta"
    case .poisson: "poisson"
    case .bernoulli: "bernoulli"
    case .empirical: "empirical"
    }
  }
}
