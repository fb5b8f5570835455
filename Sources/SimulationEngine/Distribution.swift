import CGSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A probability distribution of a real quantity, sampled through GSL's `gsl_ran_*` functions.
///
/// Values are made only through the throwing factories (``exponential(mean:)``, ``lognormal(median:sigma:)``
/// ...), which reject parameters that describe no distribution, so ``sample(_:)`` never meets one.
/// Every distribution knows its analytic ``mean`` and ``variance`` (infinite where they diverge), which
/// the tests check the samplers against and the scenario documentation quotes.
public struct Distribution: Sendable, Equatable {
  @usableFromInline
  enum Shape: Sendable, Equatable {
    case constant(Double)
    case uniform(low: Double, high: Double)
    case exponential(mean: Double)
    case normal(mean: Double, sd: Double)
    case truncatedNormal(TruncatedNormal)
    case lognormal(mu: Double, sigma: Double)
    case gamma(shape: Double, scale: Double)
    case weibull(scale: Double, shape: Double)
    case pareto(shape: Double, scale: Double)
    case beta(a: Double, b: Double)
    case poisson(mean: Double)
    case bernoulli(probability: Double)
    case empirical(EmpiricalSampler)
  }

  @usableFromInline let shape: Shape
  /// Keeps an empirical distribution's table alive (the shape holds only pointers into it).
  let owner: EmpiricalTable?

  init(_ shape: Shape) {
    self.shape = shape
    owner = nil
  }

  init(_ table: EmpiricalTable) {
    shape = .empirical(table.sampler)
    owner = table
  }

  public static func == (lhs: Distribution, rhs: Distribution) -> Bool {
    if let left = lhs.owner, let right = rhs.owner { return left == right }
    return lhs.owner == nil && rhs.owner == nil && lhs.shape == rhs.shape
  }

  /// The values a discrete distribution takes with positive probability (a constant's one value, an
  /// empirical table's values), ascending; nil for a continuous or unbounded one.
  public var finiteSupport: [Double]? {
    switch shape {
    case .constant(let value): return [value]
    case .bernoulli(let probability): return probability >= 1 ? [1] : probability <= 0 ? [0] : [0, 1]
    case .empirical:
      guard let owner else { return nil }
      return Array(Set(zip(owner.values, owner.probabilities).filter { $0.1 > 0 }.map(\.0))).sorted()
    default: return nil
    }
  }

  // MARK: - Factories

  /// Always `value`.
  public static func constant(_ value: Double) throws(DistributionError) -> Distribution {
    try check("constant", "value", value, isFinite: true)
    return Distribution(.constant(value))
  }

  /// Uniform on [low, high).
  public static func uniform(low: Double, high: Double) throws(DistributionError) -> Distribution {
    try check("uniform", "low", low, isFinite: true)
    try check("uniform", "high", high, isFinite: true)
    guard low < high else {
      throw DistributionError(
        distribution: "uniform", parameter: "high", expectation: "must be > low (\(low)), got \(high)")
    }
    return Distribution(.uniform(low: low, high: high))
  }

  /// Exponential with the given mean (GSL's parameterisation), rate 1/mean.
  public static func exponential(mean: Double) throws(DistributionError) -> Distribution {
    try checkPositive("exponential", "mean", mean)
    return Distribution(.exponential(mean: mean))
  }

  /// Normal, optionally truncated to [lower, upper] (either bound may be omitted).
  ///
  /// One-sided truncation samples with `gsl_ran_gaussian_tail` (exact); two-sided by inverting the normal
  /// CDF between the bounds, working in the upper tail when the interval lies above the mean so that far
  /// tails keep their precision. Intervals holding less than 1e-300 of the probability are rejected.
  public static func normal(
    mean: Double, sd: Double, lower: Double? = nil, upper: Double? = nil
  ) throws(DistributionError) -> Distribution {
    try check("normal", "mean", mean, isFinite: true)
    try checkPositive("normal", "sd", sd)
    if lower == nil && upper == nil {
      return Distribution(.normal(mean: mean, sd: sd))
    }
    if let lower { try check("normal", "lower", lower, isFinite: true) }
    if let upper { try check("normal", "upper", upper, isFinite: true) }
    let truncated = TruncatedNormal(mean: mean, sd: sd, lower: lower, upper: upper)
    if let lower, let upper, lower >= upper {
      throw DistributionError(
        distribution: "normal", parameter: "upper", expectation: "must be > lower (\(lower)), got \(upper)")
    }
    guard truncated.mass > 1e-300 else {
      throw DistributionError(
        distribution: "normal", parameter: lower == nil ? "upper" : "lower",
        expectation: "leaves no probability: the interval is too far in the tail of normal(\(mean), \(sd))")
    }
    return Distribution(.truncatedNormal(truncated))
  }

  /// Lognormal whose logarithm is normal(mu, sigma); `gsl_ran_lognormal(zeta: mu, sigma)`.
  public static func lognormal(mu: Double, sigma: Double) throws(DistributionError) -> Distribution {
    try check("lognormal", "mu", mu, isFinite: true)
    try checkPositive("lognormal", "sigma", sigma)
    return Distribution(.lognormal(mu: mu, sigma: sigma))
  }

  /// Lognormal with the given median (= e^mu), the natural way to state "typically 0.25 s".
  public static func lognormal(median: Double, sigma: Double) throws(DistributionError) -> Distribution {
    try checkPositive("lognormal", "median", median)
    try checkPositive("lognormal", "sigma", sigma)
    return Distribution(.lognormal(mu: log(median), sigma: sigma))
  }

  /// Gamma with shape k and scale θ: mean kθ; `gsl_ran_gamma(shape, scale)`.
  public static func gamma(shape: Double, scale: Double) throws(DistributionError) -> Distribution {
    try checkPositive("gamma", "shape", shape)
    try checkPositive("gamma", "scale", scale)
    return Distribution(.gamma(shape: shape, scale: scale))
  }

  /// Weibull with scale λ and shape k; `gsl_ran_weibull(scale, shape)`.
  public static func weibull(scale: Double, shape: Double) throws(DistributionError) -> Distribution {
    try checkPositive("weibull", "scale", scale)
    try checkPositive("weibull", "shape", shape)
    return Distribution(.weibull(scale: scale, shape: shape))
  }

  /// Pareto (type I) with shape a and scale (minimum) b; `gsl_ran_pareto(a, b)`.
  public static func pareto(shape: Double, scale: Double) throws(DistributionError) -> Distribution {
    try checkPositive("pareto", "shape", shape)
    try checkPositive("pareto", "scale", scale)
    return Distribution(.pareto(shape: shape, scale: scale))
  }

  /// Beta(a, b) on [0, 1].
  public static func beta(a: Double, b: Double) throws(DistributionError) -> Distribution {
    try checkPositive("beta", "a", a)
    try checkPositive("beta", "b", b)
    return Distribution(.beta(a: a, b: b))
  }

  /// Poisson counts with the given mean (draws are whole numbers).
  public static func poisson(mean: Double) throws(DistributionError) -> Distribution {
    try checkPositive("poisson", "mean", mean)
    guard mean <= 1e9 else {
      throw DistributionError(distribution: "poisson", parameter: "mean", expectation: "must be <= 1e9, got \(mean)")
    }
    return Distribution(.poisson(mean: mean))
  }

  /// 1 with the given probability, else 0.
  public static func bernoulli(probability: Double) throws(DistributionError) -> Distribution {
    try check("bernoulli", "probability", probability, isFinite: true)
    guard probability >= 0 && probability <= 1 else {
      throw DistributionError(
        distribution: "bernoulli", parameter: "probability", expectation: "must be in [0, 1], got \(probability)")
    }
    return Distribution(.bernoulli(probability: probability))
  }

  /// One of `values`, with probabilities proportional to `weights` (`gsl_ran_discrete`, Walker's alias
  /// method: O(1) per draw). With all weights equal this is the empirical distribution of `values`.
  public static func empirical(values: [Double], weights: [Double]? = nil) throws(DistributionError) -> Distribution {
    Distribution(try EmpiricalTable(values: values, weights: weights ?? values.map { _ in 1 }))
  }

  /// A discrete distribution over the indices 0..<weights.count.
  public static func discrete(weights: [Double]) throws(DistributionError) -> Distribution {
    Distribution(try EmpiricalTable(values: weights.indices.map(Double.init), weights: weights))
  }

  // MARK: - Sampling

  /// One draw from `stream`.
  @inlinable
  public func sample(_ stream: RandomStream) -> Double {
    sample(stream.borrowed)
  }

  /// One draw from a borrowed stream (no reference counting: see ``BorrowedStream``).
  @inlinable
  public func sample(_ stream: BorrowedStream) -> Double {
    sampler.sample(stream)
  }

  /// The distribution without its owner: a plain value that copies without reference counting, for a
  /// model that draws from it on every event. It reads an empirical distribution's table in place, so it must
  /// not outlive this distribution (keep the distribution beside it).
  @inlinable
  public var sampler: DistributionSampler { DistributionSampler(shape: shape) }
}

/// A ``Distribution``'s draws without its owner (see ``Distribution/sampler``): copied as plain bits.
public struct DistributionSampler: Sendable {
  @usableFromInline let shape: Distribution.Shape

  @inlinable
  init(shape: Distribution.Shape) {
    self.shape = shape
  }

  /// One draw, exactly as ``Distribution/sample(_:)-(BorrowedStream)`` draws it.
  @inlinable
  public func sample(_ stream: BorrowedStream) -> Double {
    let rng = stream.gslGenerator
    switch shape {
    case .constant(let value): return value
    case .uniform(let low, let high): return gsl_ran_flat(rng, low, high)
    case .exponential(let mean): return stream.exponential(mean: mean)
    case .normal(let mean, let sd): return mean + gsl_ran_gaussian_ziggurat(rng, sd)
    case .truncatedNormal(let truncated): return truncated.sample(rng)
    // exp of a ziggurat normal: the same distribution as gsl_ran_lognormal, whose Box-Muller normal is
    // about twice as slow.
    case .lognormal(let mu, let sigma): return exp(mu + gsl_ran_gaussian_ziggurat(rng, sigma))
    case .gamma(let shape, let scale): return gsl_ran_gamma(rng, shape, scale)
    case .weibull(let scale, let shape): return gsl_ran_weibull(rng, scale, shape)
    case .pareto(let shape, let scale): return gsl_ran_pareto(rng, shape, scale)
    case .beta(let a, let b): return gsl_ran_beta(rng, a, b)
    case .poisson(let mean): return Double(gsl_ran_poisson(rng, mean))
    case .bernoulli(let probability): return Double(gsl_ran_bernoulli(rng, probability))
    case .empirical(let sampler): return sampler.sample(rng)
    }
  }
}

extension Distribution {
  // MARK: - Validation helpers

  static func check(_ name: String, _ parameter: String, _ value: Double, isFinite: Bool) throws(DistributionError) {
    if value.isNaN || (isFinite && !value.isFinite) {
      throw DistributionError(
        distribution: name, parameter: parameter, expectation: "must be a finite number, got \(value)")
    }
  }

  static func checkPositive(_ name: String, _ parameter: String, _ value: Double) throws(DistributionError) {
    try check(name, parameter, value, isFinite: true)
    guard value > 0 else {
      throw DistributionError(distribution: name, parameter: parameter, expectation: "must be > 0, got \(value)")
    }
  }
}
