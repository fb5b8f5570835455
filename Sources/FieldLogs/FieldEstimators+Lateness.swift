import CGSL
import SimulationEngine
import WidgetModel

extension FieldEstimators {
  /// `system.after_delay`: how late a policy reload runs past the date it asked for, by maximum likelihood
  /// in each family widgetsim offers (exact latenesses and lower bounds), the family chosen by AIC. Only
  /// widgets whose policy asks for no more reloads a waking day than the budget's minimum count: past it the
  /// budget, not the system's delay, decides when they run.
  static func afterDelay(_ sample: FieldSample, base: ScenarioConfiguration) -> [ParameterFit] {
    let key = "system.after_delay.mean"
    // A log names a widget by kind and family only: two instances of one cannot be told apart.
    if let shared = sharedInstances(base) {
      return [
        ParameterFit(
          key: key, count: sample.lateness.count,
          refusal: "the base scenario has \(shared): a log cannot tell their timelines apart")
      ]
    }
    let budgetPerDay = base.budget.minPerDay
    let within = sample.lateness.filter { $0.requestedPerDay <= budgetPerDay }
    let exact = within.filter(\.exact).map(\.seconds)
    let censored = within.filter { !$0.exact }.map(\.seconds)
    guard exact.count >= minimumCount else {
      let over = sample.lateness.count - within.count
      return [
        ParameterFit(
          key: key, count: exact.count,
          refusal: "\(exact.count) policy reloads with nothing else that could have caused them, inside the phones' "
            + "waking hours\(over > 0 ? " (\(over) more from widgets asking for more than the budget allows)" : ""); "
            + "\(minimumCount) needed")
      ]
    }
    return familyFit(
      key: key, setting: "system.after_delay", exact: exact, censored: censored, count: within.count)
  }

  /// A delay by maximum likelihood in each family widgetsim offers, from exact values and lower bounds
  /// (seconds), the family chosen by AIC; `setting` is the scenario key it sets.
  /// Each parameter of a two-parameter family as a row of its own (`SETTING.shape`, `SETTING.median`...), with
  /// its 95% interval (the log-scale delta method: every parameter is searched as its logarithm); nothing for
  /// the exponential, whose one parameter is the mean's row.
  static func parameterRows(_ fit: LatenessFamily.Fit, setting: String, count: Int) -> [ParameterFit] {
    guard fit.family.parameterCount > 1, fit.covariance.count >= fit.parameters.count else { return [] }
    return fit.family.parameterNames.enumerated().map { index, parameter in
      let (log, se) = (fit.parameters[index], Swift.max(0, fit.covariance[index][index]).squareRoot())
      return ParameterFit(
        key: "\(setting).\(parameter.name)", estimate: exp(log), low: exp(log - 1.959964 * se),
        high: exp(log + 1.959964 * se), count: count,
        method: "the \(fit.family.rawValue) delay's \(parameter.name)\(parameter.seconds ? " (seconds)" : ""); "
          + "log-scale delta-method interval",
        override: nil)
    }
  }

  static func familyFit(key: String, setting: String, exact: [Double], censored: [Double], count: Int)
    -> [ParameterFit]
  {
    let fits = LatenessFamily.allCases.compactMap { $0.fit(exact: exact, censored: censored) }
    guard let best = fits.min(by: { $0.aic < $1.aic }) else {
      return [ParameterFit(key: key, count: count, refusal: "no family's likelihood could be maximised")]
    }
    let others = fits.filter { $0.family != best.family }.map {
      "\($0.family.rawValue) \(FitText.number($0.aic - best.aic))"
    }
    let mean = ParameterFit(
      key: key, estimate: best.mean, low: best.meanLow, high: best.meanHigh, count: count,
      method: "\(best.family.rawValue) by maximum likelihood with lower bounds (seconds), chosen by AIC"
        + (others.isEmpty ? "" : " (ΔAIC: \(others.joined(separator: ", ")))") + "; delta-method interval",
      override: "\(setting)=\(best.family.yaml(best.parameters))")
    return [mean] + parameterRows(best, setting: setting, count: count)
  }
}
