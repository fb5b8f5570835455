import CGSL
import SimulationEngine

extension FieldEstimators {
  /// `fleet.vary[user.app_opens.per_day]`: how much phones' opening rates differ beyond chance. The
  /// dispersion test (Poisson counts at one rate: sum of (N - r T)^2 / (r T) is chi-square with phones - 1
  /// degrees of freedom) says whether they differ; if so, a lognormal fitted to the logs of the rates
  /// (``lognormalRates(_:)``), its 95% intervals from 400 bootstrap resamples of the phones (a fixed seed: the
  /// same logs give the same intervals).
  static func opensVariation(_ sample: FieldSample) -> [ParameterFit] {
    let key = "fleet.vary[user.app_opens.per_day]"
    let phones = sample.opensPerPhone.filter { $0.days > 0 }
    guard phones.count >= minimumCount else {
      return [
        ParameterFit(
          key: "\(key).sigma", count: phones.count, refusal: "\(phones.count) phones; \(minimumCount) needed")
      ]
    }
    let rate = Double(phones.reduce(0) { $0 + $1.opens }) / Double(phones.reduce(0) { $0 + $1.days })
    guard rate > 0 else {
      return [ParameterFit(key: "\(key).sigma", count: phones.count, refusal: "no phone opened the app")]
    }
    let dispersion = phones.reduce(0.0) {
      $0 + pow(Double($1.opens) - rate * Double($1.days), 2) / (rate * Double($1.days))
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
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 0x0F1E_1D10))
    var medians: [Double] = []
    var sigmas: [Double] = []
    for _ in 0..<400 {
      let resample = (0..<phones.count).map { _ in phones[stream.integer(below: phones.count)] }
      guard let fit = lognormalRates(resample) else { continue }
      medians.append(fit.median)
      sigmas.append(fit.sigma)
    }
    let median = SampleQuantiles(medians)
    let sigma = SampleQuantiles(sigmas)
    let method =
      "lognormal of the phones' rates, moments of their logs less the counts' noise (dispersion test p = "
      + "\(FitText.number(p, digits: 3))); bootstrap percentile interval"
    return [
      ParameterFit(
        key: "\(key).median", estimate: point.median, low: median.quantile(0.025), high: median.quantile(0.975),
        count: phones.count, method: method,
        override: "\(key)={dist: lognormal, median: \(FitText.number(point.median)), "
          + "sigma: \(FitText.number(point.sigma))}"),
      ParameterFit(
        key: "\(key).sigma", estimate: point.sigma, low: sigma.quantile(0.025), high: sigma.quantile(0.975),
        count: phones.count, method: method, override: nil),
    ]
  }

  /// The lognormal of the phones' rates, from the logs of their rates: a count N over T days has
  /// log(N / T) close to log(rate) - 1 / (2 N) with variance 1 / N (the delta method), so the lognormal's mu
  /// is the mean of log(N / T) + 1 / (2 N) and its sigma^2 the variance of the logs less the mean of 1 / N.
  /// Phones without an open carry no log (they are few when rates are fitted at all); nil when nothing is
  /// left beyond the counts' own noise.
  static func lognormalRates(_ phones: [(opens: Int, days: Int)]) -> (median: Double, sigma: Double)? {
    let counted = phones.filter { $0.opens > 0 }
    guard counted.count >= 2 else { return nil }
    let logs = counted.map { log(Double($0.opens) / Double($0.days)) + 1 / (2 * Double($0.opens)) }
    let n = Double(logs.count)
    let mu = logs.reduce(0, +) / n
    let variance = logs.reduce(0) { $0 + ($1 - mu) * ($1 - mu) } / (n - 1)
    let noise = counted.reduce(0) { $0 + 1 / Double($1.opens) } / n
    guard variance > noise else { return nil }
    return (exp(mu), (variance - noise).squareRoot())
  }
}
