import WidgetModel

extension FieldEstimators {
  /// A widget asked for more than it got when its policy asks for this many times the reloads it was granted.
  static let saturation = 1.5

  /// `budget.per_day.max`: the reloads the budget grants a widget in 24 hours, read from widgets whose
  /// policy asked for more than they got (``saturation``): under the rolling 24-hour budget no 24 hours
  /// hold more budgeted reloads than the allowance, and a widget that keeps asking fills every window, so
  /// the most in any window of its log is the allowance's whole part: the allowance lies in [most, most + 1).
  /// So the estimate is the mean over such widgets plus one half, and its interval runs from the Student t
  /// interval's low end to its high end plus one. Read as `max` (a widget viewed at least
  /// `engaged_views_per_day` times a day is granted max).
  static func budgetAllowance(_ sample: FieldSample, base: ScenarioConfiguration) -> ParameterFit {
    let key = "budget.per_day.max"
    if let shared = sharedInstances(base) {
      return ParameterFit(
        key: key, count: 0, refusal: "the base scenario has \(shared): a log cannot tell their timelines apart")
    }
    if base.budget.refill != .rolling24h || base.budget.debug {
      return ParameterFit(
        key: key, count: 0, refusal: "the base scenario's budget is not the rolling 24-hour one this estimator reads")
    }
    let asked = sample.allowances.filter { $0.requestedPerDay >= saturation * $0.granted && $0.granted > 0 }
    guard asked.count >= 3 else {
      return ParameterFit(
        key: key, count: asked.count,
        refusal: "\(asked.count) widgets asked for more reloads than they got over a whole day of log "
          + "(of \(sample.allowances.count) with one); 3 needed: the budget is only seen where it binds")
    }
    let (mean, half) = meanInterval(asked.map(\.granted))
    let estimate = mean + 0.5
    let minimum = Swift.min(base.budget.minPerDay, estimate)
    return ParameterFit(
      key: key, estimate: estimate, low: Swift.max(0, mean - half), high: mean + 1 + half, count: asked.count,
      method: "most budgeted timelines in any 24 hours of a widget that asked for \(FitText.number(saturation))x "
        + "as many or more, plus one half (rolling 24-hour budget; read as max, for engaged widgets); "
        + "Student t interval over widgets, widened by the one a whole count cannot show",
      override: "budget.per_day={min: \(FitText.number(minimum)), max: \(FitText.number(estimate))}")
  }

  /// The first widget kind and family the base scenario places more than once, named, or nil.
  static func sharedInstances(_ base: ScenarioConfiguration) -> String? {
    var instances: [String: Int] = [:]
    for widget in base.widgets {
      instances["\(widget.kind) (\(widget.family.rawValue))", default: 0] += widget.instances * widget.placements.count
    }
    return instances.filter { $0.value > 1 }.keys.sorted().first.map { "\(instances[$0]!) instances of \($0)" }
  }
}
