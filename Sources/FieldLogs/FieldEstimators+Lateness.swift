import CGSL
import SimulationEngine
import WidgetModel

extension FieldEstimators {
  /// `system.after_delay`: how late a policy reload runs past the date it asked for, by maximum likelihood
  /// in each family widgetsim offers (exact latenesses and lower bounds), the family chosen by AIC. Only
  /// widgets whose policy asks for no more reloads a waking day than the budget's minimum count: past it the
  /// budget, not the system's delay, decides when they run.
  static func afterDelay(_ sample: FieldSample, budgetPerDay: Double) -> ParameterFit {
    let key = "system.after_delay.mean"
    let within = sample.lateness.filter { $0.requestedPerDay <= budgetPerDay }
    let exact = within.filter(\.exact).map(\.seconds)
    let censored = within.filter { !$0.exact }.map(\.seconds)
    guard exact.count >= minimumCount else {
      let over = sample.lateness.count - within.count
      return ParameterFit(
        key: key, count: exact.count,
        refusal: "\(exact.count) policy reloads with nothing else that could have caused them, inside the phones' "
          + "waking hours\(over > 0 ? " (\(over) more from widgets asking for more than the budget allows)" : ""); "
          + "\(minimumCount) needed")
    }
    let fits = LatenessFamily.allCases.compactMap { $0.fit(exact: exact, censored: censored) }
    guard let best = fits.min(by: { $0.aic < $1.aic }) else {
      return ParameterFit(key: key, count: within.count, refusal: "no family's likelihood could be maximised")
    }
    let others = fits.filter { $0.family != best.family }.map {
      "\($0.family.rawValue) \(FitText.number($0.aic - best.aic))"
    }
    return ParameterFit(
      key: key, estimate: best.mean, low: best.meanLow, high: best.meanHigh, count: within.count,
      method: "\(best.family.rawValue) by maximum likelihood with lower bounds (seconds), chosen by AIC"
        + (others.isEmpty ? "" : " (ΔAIC: \(others.joined(separator: ", ")))") + "; delta-method interval",
      override: "system.after_delay=\(best.family.yaml(best.parameters))")
  }

  /// `app.background_refresh.delay` and `reference_opens`: a run's lateness past its earliest date is
  /// exponential with mean `delay × max(1, reference_opens / opens per day)`, both fitted by maximum
  /// likelihood; intervals from the observed information. When the phones' opens per day do not reach
  /// below the fitted reference, the two cannot be told apart and only `delay` is fitted (at the base's
  /// reference).
  static func backgroundRefresh(_ sample: FieldSample, base: BackgroundRefreshConfiguration) -> [ParameterFit] {
    let key = "app.background_refresh.delay"
    let runs = sample.refreshes
    let exactRuns = runs.filter(\.exact).count
    guard base.enabled else {
      return [
        ParameterFit(
          key: key, count: runs.count,
          refusal: "the base scenario has app.background_refresh off"
            + (runs.isEmpty ? "" : " but the logs show \(runs.count) runs: turn it on with the app's interval"))
      ]
    }
    guard exactRuns >= minimumCount else {
      return [
        ParameterFit(
          key: key, count: runs.count,
          refusal: "\(exactRuns) background refresh runs whose request the log shows; \(minimumCount) needed")
      ]
    }
    func negative(_ delay: Double, _ reference: Double) -> Double {
      var sum = 0.0
      for run in runs {
        let mean = delay * Swift.max(1, run.opensPerDay > 0 ? reference / run.opensPerDay : 1e6)
        sum += (run.exact ? log(mean) : 0) + run.seconds / mean
      }
      return sum
    }
    let meanLateness = runs.reduce(0) { $0 + $1.seconds } / Double(exactRuns)
    let both = Minimizer.minimize(
      { negative(exp($0[0]), exp($0[1])) }, from: [log(meanLateness), log(base.referenceOpensPerDay)],
      steps: [0.3, 0.3])
    let information = Minimizer.hessian({ negative(exp($0[0]), exp($0[1])) }, at: both.parameters)
    let reference = exp(both.parameters[1])
    let below = runs.filter { $0.opensPerDay < reference }.count
    if both.converged, below >= minimumCount, let covariance = Minimizer.inverse(information) {
      let (delay, delayHalf) = (both.parameters[0], 1.959964 * covariance[0][0].squareRoot())
      let referenceHalf = 1.959964 * covariance[1][1].squareRoot()
      let method =
        "exponential lateness, mean delay x max(1, reference_opens / opens per day), maximum likelihood; "
        + "interval from the observed information (log scale)"
      return [
        ParameterFit(
          key: key, estimate: exp(delay), low: exp(delay - delayHalf), high: exp(delay + delayHalf),
          count: runs.count, method: method + " (seconds)",
          override: "\(key)=\(FitText.seconds(exp(delay)))"),
        ParameterFit(
          key: "app.background_refresh.reference_opens", estimate: reference,
          low: exp(both.parameters[1] - referenceHalf), high: exp(both.parameters[1] + referenceHalf),
          count: runs.count, method: method,
          override: "app.background_refresh.reference_opens=\(FitText.number(reference))"),
      ]
    }
    // Delay alone, at the base's reference: closed form (the mean of lateness / factor), chi-square interval.
    let factors = runs.map { Swift.max(1, $0.opensPerDay > 0 ? base.referenceOpensPerDay / $0.opensPerDay : 1e6) }
    let scaled = zip(runs, factors).reduce(0) { $0 + $1.0.seconds / $1.1 }
    let n = Double(exactRuns)
    let delay = scaled / n
    return [
      ParameterFit(
        key: key, estimate: delay, low: 2 * scaled / gsl_cdf_chisq_Pinv(0.975, 2 * n),
        high: 2 * scaled / gsl_cdf_chisq_Pinv(0.025, 2 * n), count: runs.count,
        method:
          "exponential lateness by maximum likelihood with lower bounds, at the base's reference_opens (seconds); "
          + "chi-square interval",
        override: "\(key)=\(FitText.seconds(delay))"),
      ParameterFit(
        key: "app.background_refresh.reference_opens", count: runs.count,
        refusal:
          "only \(below) runs came from phones opened less than the fitted reference (\(FitText.number(reference)) "
          + "a day): the logs cannot tell delay from reference_opens; kept the base's \(FitText.number(base.referenceOpensPerDay))"
      ),
    ]
  }
}
