extension Distribution {
  /// The smallest and largest values a draw can take (infinite where the distribution is unbounded).
  public var support: ClosedRange<Double> {
    switch shape {
    case .constant(let value): value...value
    case .uniform(let low, let high): low...high
    case .truncatedNormal(let truncated): (truncated.lower ?? -.infinity)...(truncated.upper ?? .infinity)
    case .exponential, .lognormal, .gamma, .weibull, .poisson: 0...Double.infinity
    case .pareto(_, let scale): scale...Double.infinity
    case .beta, .bernoulli: 0...1
    case .empirical:
      (owner?.values.min() ?? -.infinity)...(owner?.values.max() ?? .infinity)
    case .normal: -Double.infinity...Double.infinity
    }
  }
}
