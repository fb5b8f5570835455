import CGSL
import SimulationEngine
import Statistics

/// A family of distributions for a lateness (seconds ≥ 0), fitted by maximum likelihood to exact values and
/// lower bounds (right-censored), in log parameters so the search stays in range.
public enum LatenessFamily: String, CaseIterable, Sendable {
  case exponential, gamma, lognormal, weibull

  var parameterCount: Int { self == .exponential ? 1 : 2 }

  /// Values below this many seconds are read as it (a density at zero may be zero or infinite).
  static let floorSeconds = 1e-3

  /// log f(x) and log S(x) under parameters `p` (log scale).
  func logDensity(_ x: Double, _ p: [Double]) -> Double {
    let x = Swift.max(x, LatenessFamily.floorSeconds)
    let value: Double
    switch self {
    case .exponential: value = gsl_ran_exponential_pdf(x, exp(p[0]))
    case .gamma: value = gsl_ran_gamma_pdf(x, exp(p[0]), exp(p[1]))
    case .lognormal: value = gsl_ran_lognormal_pdf(x, p[0], exp(p[1]))
    case .weibull: value = gsl_ran_weibull_pdf(x, exp(p[0]), exp(p[1]))
    }
    return log(Swift.max(value, 1e-300))
  }

  func logSurvival(_ x: Double, _ p: [Double]) -> Double {
    let x = Swift.max(x, LatenessFamily.floorSeconds)
    let value: Double
    switch self {
    case .exponential: value = gsl_cdf_exponential_Q(x, exp(p[0]))
    case .gamma: value = gsl_cdf_gamma_Q(x, exp(p[0]), exp(p[1]))
    case .lognormal: value = gsl_cdf_lognormal_Q(x, p[0], exp(p[1]))
    case .weibull: value = gsl_cdf_weibull_Q(x, exp(p[0]), exp(p[1]))
    }
    return log(Swift.max(value, 1e-300))
  }

  /// The sums of the exact values the families' likelihoods need (values below the floor read as it).
  struct ExactSums {
    let count: Double
    let sum: Double
    let sumOfLogs: Double
    let sumOfSquaredLogs: Double

    init(_ values: [Double]) {
      var (sum, logs, squares) = (0.0, 0.0, 0.0)
      for value in values {
        let x = Swift.max(value, LatenessFamily.floorSeconds)
        let logarithm = log(x)
        sum += x
        logs += logarithm
        squares += logarithm * logarithm
      }
      count = Double(values.count)
      self.sum = sum
      sumOfLogs = logs
      sumOfSquaredLogs = squares
    }
  }

  /// The sum of log f over the exact values: from their sums where the family allows (exponential, gamma,
  /// lognormal), value by value (from their logs) for the Weibull.
  func exactLogLikelihood(_ sums: ExactSums, _ logs: [Double], _ p: [Double]) -> Double {
    let n = sums.count
    switch self {
    case .exponential:
      return -n * p[0] - sums.sum / exp(p[0])
    case .gamma:
      let (shape, scale) = (exp(p[0]), exp(p[1]))
      return -n * (gsl_sf_lngamma(shape) + shape * p[1]) + (shape - 1) * sums.sumOfLogs - sums.sum / scale
    case .lognormal:
      let (mu, sigma) = (p[0], exp(p[1]))
      let squares = sums.sumOfSquaredLogs - 2 * mu * sums.sumOfLogs + n * mu * mu
      return -n * (p[1] + 0.5 * log(2 * Double.pi)) - sums.sumOfLogs - squares / (2 * sigma * sigma)
    case .weibull:
      // log f = log shape - log scale + (shape - 1)(log x - log scale) - (x / scale)^shape.
      let shape = exp(p[1])
      var powers = 0.0
      for value in logs { powers += exp(shape * (value - p[0])) }
      return n * (p[1] - p[0]) + (shape - 1) * (sums.sumOfLogs - n * p[0]) - powers
    }
  }

  /// The mean under parameters `p`.
  func mean(_ p: [Double]) -> Double {
    switch self {
    case .exponential: exp(p[0])
    case .gamma: exp(p[0]) * exp(p[1])
    case .lognormal: exp(p[0] + exp(2 * p[1]) / 2)
    case .weibull: exp(p[0]) * gsl_sf_gamma(1 + 1 / exp(p[1]))
    }
  }

  /// Starting parameters from the exact values' mean and variance.
  func start(mean m: Double, variance v: Double) -> [Double] {
    let m = Swift.max(m, 1)
    let cv2 = Swift.max(v / (m * m), 0.05)
    switch self {
    case .exponential: return [log(m)]
    case .gamma: return [log(1 / cv2), log(m * cv2)]
    case .lognormal:
      let s2 = log(1 + cv2)
      return [log(m) - s2 / 2, log(s2.squareRoot())]
    case .weibull: return [log(m), log(Swift.max(0.2, 1 / cv2.squareRoot()))]
    }
  }

  /// The names of the parameters as a scenario writes them, and whether each is a duration (seconds).
  var parameterNames: [(name: String, seconds: Bool)] {
    switch self {
    case .exponential: [("mean", true)]
    case .gamma: [("shape", false), ("scale", true)]
    case .lognormal: [("median", true), ("sigma", false)]
    case .weibull: [("scale", true), ("shape", false)]
    }
  }

  /// The distribution as a scenario writes it (durations in seconds).
  func yaml(_ p: [Double]) -> String {
    switch self {
    case .exponential: "{dist: exponential, mean: \(FitText.seconds(exp(p[0])))}"
    case .gamma: "{dist: gamma, shape: \(FitText.number(exp(p[0]))), scale: \(FitText.seconds(exp(p[1])))}"
    case .lognormal: "{dist: lognormal, median: \(FitText.seconds(exp(p[0]))), sigma: \(FitText.number(exp(p[1])))}"
    case .weibull: "{dist: weibull, scale: \(FitText.seconds(exp(p[0]))), shape: \(FitText.number(exp(p[1])))}"
    }
  }

  /// A maximum-likelihood fit of this family: parameters, log-likelihood, AIC, and the mean with its 95%
  /// interval (delta method on the observed information); nil when the search fails.
  struct Fit {
    let family: LatenessFamily
    let parameters: [Double]
    let logLikelihood: Double
    var aic: Double { 2 * Double(family.parameterCount + (loss == nil ? 0 : 1)) - 2 * logLikelihood }
    let mean: Double
    let meanLow: Double
    let meanHigh: Double
    /// The parameters' covariance (log scale; the loss's logit last when fitted).
    var covariance: [[Double]] = []
    /// With a share never delivered fitted too: that share and its 95% interval.
    var loss: Double?
    var lossLow: Double?
    var lossHigh: Double?
  }

  /// The fit; with `loss`, a share π of the values is never observed (a push never delivered) and fitted
  /// with the family's parameters: an exact value has density (1 - π) f(x), a lower bound c the chance
  /// π + (1 - π) S(c) (lost, or not yet there). π is searched on the logit scale; its interval is the
  /// logit's delta-method interval mapped back.
  func fit(exact: [Double], censored: [Double], loss: Bool = false) -> Fit? {
    guard !exact.isEmpty else { return nil }
    let m = exact.reduce(0, +) / Double(exact.count)
    let v = exact.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(Swift.max(1, exact.count - 1))
    let negative =
      loss
      ? lossyNegativeLogLikelihood(exact: exact, censored: censored)
      : negativeLogLikelihood(
        exact: exact, censored: censored)
    var start = self.start(mean: m, variance: v)
    if loss {
      let share = Swift.min(0.9, Swift.max(0.01, Double(censored.count) / Double(censored.count + exact.count) / 2))
      start.append(log(share / (1 - share)))
    }
    let result = Minimizer.minimize(negative, from: start, steps: start.map { _ in 0.3 })
    guard result.converged, result.value.isFinite else { return nil }
    let q = result.parameters
    let p = Array(q.prefix(parameterCount))
    let mean = self.mean(p)
    guard mean.isFinite, let covariance = Minimizer.inverse(Minimizer.hessian(negative, at: q)) else { return nil }
    // The mean's gradient in the log parameters, by central differences (the loss does not move it).
    let gradient = q.indices.map { index -> Double in
      guard index < p.count else { return 0 }
      var up = p
      var down = p
      up[index] += 1e-5
      down[index] -= 1e-5
      return (self.mean(up) - self.mean(down)) / 2e-5
    }
    var variance = 0.0
    for i in q.indices { for j in q.indices { variance += gradient[i] * covariance[i][j] * gradient[j] } }
    let half = 1.959964 * Swift.max(0, variance).squareRoot()
    var fit = Fit(
      family: self, parameters: p, logLikelihood: -result.value, mean: mean, meanLow: Swift.max(0, mean - half),
      meanHigh: mean + half)
    fit.covariance = covariance
    if loss, let theta = q.last {
      let logitHalf = 1.959964 * Swift.max(0, covariance[q.count - 1][q.count - 1]).squareRoot()
      let logistic = { (x: Double) in 1 / (1 + exp(-x)) }
      (fit.loss, fit.lossLow, fit.lossHigh) = (
        logistic(theta), logistic(theta - logitHalf), logistic(theta + logitHalf)
      )
    }
    return fit
  }

  /// -log L of exact values and lower bounds.
  private func negativeLogLikelihood(exact: [Double], censored: [Double]) -> ([Double]) -> Double {
    let exactSums = ExactSums(exact)
    let exactLogs = exact.map { log(Swift.max($0, LatenessFamily.floorSeconds)) }
    let censoredLogs = censored.map { log(Swift.max($0, LatenessFamily.floorSeconds)) }
    let censoredSum = censored.reduce(0) { $0 + Swift.max($1, LatenessFamily.floorSeconds) }
    return { p in
      var sum = self.exactLogLikelihood(exactSums, exactLogs, p)
      switch self {
      case .exponential: sum -= censoredSum / exp(p[0])
      case .weibull:
        // log S(c) = -(c / scale)^shape.
        let shape = exp(p[1])
        for value in censoredLogs { sum -= exp(shape * (value - p[0])) }
      case .gamma, .lognormal:
        for x in censored { sum += self.logSurvival(x, p) }
      }
      return -sum
    }
  }

  /// -log L with a share never observed, its logit last in the parameters.
  private func lossyNegativeLogLikelihood(exact: [Double], censored: [Double]) -> ([Double]) -> Double {
    let exactSums = ExactSums(exact)
    let exactLogs = exact.map { log(Swift.max($0, LatenessFamily.floorSeconds)) }
    let count = Double(exact.count)
    return { q in
      let p = Array(q.prefix(self.parameterCount))
      let theta = q[q.count - 1]
      // log π and log(1 - π), stable for any logit.
      let (logLost, logKept) = (-LatenessFamily.softplus(-theta), -LatenessFamily.softplus(theta))
      var sum = self.exactLogLikelihood(exactSums, exactLogs, p) + count * logKept
      for x in censored {
        let (a, b) = (logLost, logKept + self.logSurvival(x, p))
        sum += Swift.max(a, b) + log1p(exp(-abs(a - b)))
      }
      return -sum
    }
  }

  /// log(1 + e^x) without overflow.
  static func softplus(_ x: Double) -> Double { x > 0 ? x + log1p(exp(-x)) : log1p(exp(x)) }
}
