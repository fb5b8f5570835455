import CGSL
import SimulationEngine
import Statistics

extension FieldEstimators {
  /// `fleet.vary[user.app_opens.per_day]`: how much phones' opening rates differ beyond chance. The
  /// dispersion test (Poisson counts at one rate: sum of (N - r T)^2 / (r T) is chi-square with phones - 1
  /// degrees of freedom) says whether they differ; if so, a lognormal fitted to the logs of the rates
  /// (``lognormalRates(_:)``), with Student's t interval for the median and the chi-square's for sigma.
  static func opensVariation(_ sample: FieldSample) -> [ParameterFit] {
    let key = "fleet.vary[user.app_opens.per_day]"
    let phones = sample.opensPerPhone.filter { $0.days > 0 }
    guard phones.count >= minimumCount else {
      return [
        ParameterFit(
          key: "\(key).sigma", count: phones.count, refusal: "\(phones.count) phones; \(minimumCount) needed")
      ]
    }
    let rate = Double(phones.reduce(0) { $0 + $1.opens }) / phones.reduce(0) { $0 + $1.days }
    guard rate > 0 else {
      return [ParameterFit(key: "\(key).sigma", count: phones.count, refusal: "no phone opened the app")]
    }
    let dispersion = phones.reduce(0.0) {
      $0 + pow(Double($1.opens) - rate * $1.days, 2) / (rate * $1.days)
    }
    let p = gsl_cdf_chisq_Q(dispersion, Double(phones.count - 1))
    guard p < 0.05 else {
      return [
        ParameterFit(
          key: "\(key).sigma", count: phones.count,
          refusal:
            "phones' opens a day do not differ beyond chance (dispersion test p = \(FitText.number(p, digits: 3)))")
      ]
    }
    guard let point = lognormalRates(phones) else {
      return [ParameterFit(key: "\(key).sigma", count: phones.count, refusal: "the rates' variance is all chance")]
    }
    // The logs of the rates are normal with variance sigma^2 + noise (the lognormal, plus the counts' own
    // noise): Student's t for their mean, the chi-square for their variance, less the noise.
    let n = Double(point.count)
    let t = ConfidenceInterval.studentQuantile(probability: 0.975, degreesOfFreedom: n - 1)
    let spread = point.logVariance * (n - 1)
    let half = t * (point.logVariance / n).squareRoot()
    let sigmaLow = Swift.max(0, spread / gsl_cdf_chisq_Pinv(0.975, n - 1) - point.noise).squareRoot()
    let sigmaHigh = Swift.max(0, spread / gsl_cdf_chisq_Pinv(0.025, n - 1) - point.noise).squareRoot()
    let method =
      "lognormal of the phones' rates, moments of their logs less the counts' noise (dispersion test p = "
      + "\(FitText.number(p, digits: 3)))"
    return [
      ParameterFit(
        key: "\(key).median", estimate: point.median, low: point.median * exp(-half),
        high: point.median * exp(half), count: phones.count, method: method + "; Student t interval",
        override: "\(key)={dist: lognormal, median: \(FitText.number(point.median)), "
          + "sigma: \(FitText.number(point.sigma))}"),
      ParameterFit(
        key: "\(key).sigma", estimate: point.sigma, low: sigmaLow, high: sigmaHigh, count: phones.count,
        method: method + "; chi-square interval", override: nil),
    ]
  }

  /// The lognormal of the phones' rates, from the logs of their rates: a count N over T days has
  /// log(N / T) close to log(rate) - 1 / (2 N) with variance 1 / N (the delta method), so the lognormal's mu
  /// is the mean of log(N / T) + 1 / (2 N) and its sigma^2 the variance of the logs less the mean of 1 / N.
  /// Phones without an open carry no log (they are few when rates are fitted at all); nil when nothing is
  /// left beyond the counts' own noise.
  static func lognormalRates(_ phones: [(opens: Int, days: Double)]) -> (
    median: Double, sigma: Double, count: Int, logVariance: Double, noise: Double
  )? {
    let counted = phones.filter { $0.opens > 0 }
    guard counted.count >= 2 else { return nil }
    let logs = counted.map { log(Double($0.opens) / $0.days) + 1 / (2 * Double($0.opens)) }
    let n = Double(logs.count)
    let mu = logs.reduce(0, +) / n
    let variance = logs.reduce(0) { $0 + ($1 - mu) * ($1 - mu) } / (n - 1)
    let noise = counted.reduce(0) { $0 + 1 / Double($1.opens) } / n
    guard variance > noise else { return nil }
    return (exp(mu), (variance - noise).squareRoot(), counted.count, variance, noise)
  }
}
