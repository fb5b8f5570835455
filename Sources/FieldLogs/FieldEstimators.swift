import CGSL
import Reports
import SimulationEngine
import Statistics
import WidgetModel

/// The estimators behind `widgetsim calibrate`: one per scenario parameter a field log informs, each with
/// its 95% interval and sample size, or the reason the logs cannot identify it (docs/field-logs.md).
public enum FieldEstimators {
  /// Fewer observations than this and a parameter is not fitted.
  public static let minimumCount = 20

  /// Every estimate `sample` supports, against the base scenario `base` (which says what the app asks for:
  /// its background refresh interval, its budget).
  public static func fit(_ sample: FieldSample, base: ScenarioConfiguration) -> [ParameterFit] {
    // GSL's error handler off: a domain error is a NaN the fits refuse, never an abort.
    GSL.configure()
    var fits = [opensPerDay(sample)]
    fits += opensVariation(sample)
    fits.append(widgetOpenShare(sample))
    fits += session(sample)
    fits += sleep(sample)
    fits += opensProfile(sample, sleep: fittedSleep(fits) ?? base.user.sleep)
    fits += afterDelay(sample, base: base)
    fits.append(budgetAllowance(sample, base: base))
    fits += backgroundRefresh(sample, base: base.app.backgroundRefresh)
    fits += pushes(sample)
    fits += wakeReloads(sample, base: base)
    return fits.map(sane)
  }

  /// A fit whose value a scenario cannot hold (not finite, a zero spread, a delay past the 30 days a key
  /// allows) becomes a refusal that says so, rather than a fitted.yaml that does not load.
  static func sane(_ fit: ParameterFit) -> ParameterFit {
    guard let estimate = fit.estimate else { return fit }
    var problem: String?
    if !estimate.isFinite || fit.override?.contains("nan") == true || fit.override?.contains("inf") == true {
      problem = "the estimate is not a finite number"
    } else if fit.key.hasSuffix("sigma") && estimate <= 0 {
      problem = "the spread came out zero: the logged values are all alike"
    } else if fit.key.contains("delay") && estimate > 30 * 86_400 {
      problem = "the estimate (\(FitText.number(estimate)) s) is past the 30 days the key allows"
    }
    guard let problem else { return fit }
    return ParameterFit(key: fit.key, count: fit.count, refusal: problem)
  }

  /// `user.app_opens.per_day`: opens over phone-days (a ratio estimator), with its 95% interval over phones
  /// (phones differ, so their days are not independent).
  static func opensPerDay(_ sample: FieldSample) -> ParameterFit {
    let key = "user.app_opens.per_day"
    let phones = sample.opensPerPhone
    guard phones.count >= 2 else { return ParameterFit(key: key, count: phones.count, refusal: "fewer than 2 phones") }
    let opens = Double(phones.reduce(0) { $0 + $1.opens })
    let days = phones.reduce(0) { $0 + $1.days }
    let rate = opens / days
    let n = Double(phones.count)
    let meanDays = days / n
    let residuals = phones.reduce(0.0) { $0 + pow(Double($1.opens) - rate * $1.days, 2) }
    let standardError = (residuals / (n * (n - 1))).squareRoot() / meanDays
    let t = ConfidenceInterval.studentQuantile(probability: 0.975, degreesOfFreedom: n - 1)
    return ParameterFit(
      key: key, estimate: rate, low: Swift.max(0, rate - t * standardError), high: rate + t * standardError,
      count: phones.count,
      method: "opens per day of log (ratio estimator, first record to last); Student t interval over phones",
      override: "\(key)=\(FitText.number(rate))")
  }

  /// `user.widget_open_share`: the share of opens the log marks as from a widget tap, with the
  /// Clopper-Pearson interval.
  static func widgetOpenShare(_ sample: FieldSample) -> ParameterFit {
    let key = "user.widget_open_share"
    let n = sample.opensWithSource
    guard n >= minimumCount else {
      return ParameterFit(
        key: key, count: n,
        refusal: "\(n) opens say whether they came from a widget (from_widget); \(minimumCount) needed")
    }
    let k = sample.opensFromWidget
    let (low, high) = clopperPearson(k, n)
    let share = Double(k) / Double(n)
    return ParameterFit(
      key: key, estimate: share, low: low, high: high, count: n, method: "share of opens; Clopper-Pearson interval",
      override: "\(key)=\(FitText.number(share))")
  }

  /// `user.app_opens.session`: lognormal by maximum likelihood over foreground stretches (mean and standard
  /// deviation of their logs); the median's interval from Student's t, sigma's from the chi-square.
  static func session(_ sample: FieldSample) -> [ParameterFit] {
    let key = "user.app_opens.session"
    let logs = sample.sessions.filter { $0 > 0 }.map { log($0) }
    guard logs.count >= minimumCount else {
      let reason = "\(logs.count) foreground stretches (app_foreground then app_background); \(minimumCount) needed"
      return [ParameterFit(key: "\(key).median", count: logs.count, refusal: reason)]
    }
    let (mu, half) = meanInterval(logs)
    let n = Double(logs.count)
    let variance = logs.reduce(0) { $0 + ($1 - mu) * ($1 - mu) } / (n - 1)
    let sigma = variance.squareRoot()
    let sigmaLow = (variance * (n - 1) / gsl_cdf_chisq_Pinv(0.975, n - 1)).squareRoot()
    let sigmaHigh = (variance * (n - 1) / gsl_cdf_chisq_Pinv(0.025, n - 1)).squareRoot()
    let override = "\(key)={dist: lognormal, median: \(FitText.seconds(exp(mu))), sigma: \(FitText.number(sigma))}"
    return [
      ParameterFit(
        key: "\(key).median", estimate: exp(mu), low: exp(mu - half), high: exp(mu + half), count: logs.count,
        method: "lognormal maximum likelihood (seconds); Student t interval", override: override),
      ParameterFit(
        key: "\(key).sigma", estimate: sigma, low: sigmaLow, high: sigmaHigh, count: logs.count,
        method: "lognormal maximum likelihood; chi-square interval", override: nil),
    ]
  }

  /// `user.sleep`: the median over phones of each phone's waking window, read from its opens (the largest gap
  /// between opens around the clock, widened by one mean spacing); an order-statistic interval for the median.
  static func sleep(_ sample: FieldSample) -> [ParameterFit] {
    let phones = sample.waking
    // With 6 phones the widest order-statistic interval, [min, max], holds the median 97% of the time.
    guard phones.count >= 6 else {
      return [
        ParameterFit(
          key: "user.sleep.from", count: phones.count,
          refusal: "\(phones.count) phones with \(FieldSample.minimumOpensForWaking) opens or more; 6 needed")
      ]
    }
    let from = clockMedianInterval(phones.map(\.sleep))
    let to = clockMedianInterval(phones.map(\.wake))
    let method =
      "median over phones of the waking window their opens show (seconds since midnight); order-statistic interval"
    let override = "user.sleep={from: \"\(clock(from.median))\", to: \"\(clock(to.median))\"}"
    return [
      ParameterFit(
        key: "user.sleep.from", estimate: from.median, low: from.low, high: from.high, count: phones.count,
        method: method, override: override),
      ParameterFit(
        key: "user.sleep.to", estimate: to.median, low: to.low, high: to.high, count: phones.count, method: method,
        override: nil),
    ]
  }

  /// ``medianInterval(_:)`` of times of day (seconds since midnight), read around their circular mean so
  /// that a window across midnight keeps together; the results wrap back into 0..<86,400.
  static func clockMedianInterval(_ seconds: [Double]) -> (median: Double, low: Double, high: Double) {
    let angles = seconds.map { $0 / 86_400 * 2 * Double.pi }
    let reference =
      atan2(angles.reduce(0) { $0 + sin($1) }, angles.reduce(0) { $0 + cos($1) }) / (2 * Double.pi) * 86_400
    let unwrapped = seconds.map {
      reference + ($0 - reference + 43_200 + 86_400 * 2).truncatingRemainder(dividingBy: 86_400) - 43_200
    }
    let (median, low, high) = medianInterval(unwrapped)
    func wrap(_ value: Double) -> Double {
      (value.truncatingRemainder(dividingBy: 86_400) + 86_400).truncatingRemainder(dividingBy: 86_400)
    }
    return (wrap(median), wrap(low), wrap(high))
  }

  /// `HH:MM` of seconds since midnight (to the nearest minute).
  static func clock(_ seconds: Double) -> String {
    ClockText.minutes(Int((seconds / 60).rounded()) % 1_440)
  }

  /// A sample's mean and the half-width of its 95% Student t interval.
  static func meanInterval(_ values: [Double]) -> (mean: Double, half: Double) {
    var statistics = RunningStatistics()
    for value in values { statistics.add(value) }
    let n = Double(values.count)
    let t = ConfidenceInterval.studentQuantile(probability: 0.975, degreesOfFreedom: n - 1)
    return (statistics.mean, t * statistics.standardDeviation / n.squareRoot())
  }

  /// The median and a distribution-free 95% interval for it: order statistics at n/2 ∓ 1.96 √n / 2.
  static func medianInterval(_ values: [Double]) -> (median: Double, low: Double, high: Double) {
    let sorted = values.sorted()
    let n = sorted.count
    let median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    let spread = 0.98 * Double(n).squareRoot()
    let low = Swift.max(0, Int((Double(n) / 2 - spread).rounded(.down)) - 1)
    let high = Swift.min(n - 1, Int((Double(n) / 2 + spread).rounded(.up)))
    return (median, sorted[low], sorted[high])
  }
}
