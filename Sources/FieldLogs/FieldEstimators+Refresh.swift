import CGSL
import SimulationEngine
import WidgetModel

extension FieldEstimators {
  /// The chi-square(1) quantile at 0.95: a profile-likelihood interval holds the values within half of it.
  static let profileDrop = 3.841_459 / 2

  /// `app.background_refresh.delay` and `reference_opens`: a run's lateness past its earliest date is
  /// exponential with mean `delay × max(1, reference_opens / opens a day)` (``RefreshLikelihood``). Both are
  /// fitted by maximum likelihood, their 95% intervals from the profile likelihood (the rule has a kink
  /// at every phone's opens, where an interval from curvature would mislead). When the latenesses do not
  /// depend on opens (likelihood ratio against `reference_opens` below every phone's opens, p ≥ 0.05), the
  /// logs contradict the rule's shape: `reference_opens` is set below every phone's opens, so that it
  /// changes nothing, and the method says so.
  static func backgroundRefresh(_ sample: FieldSample, base: BackgroundRefreshConfiguration) -> [ParameterFit] {
    let key = "app.background_refresh.delay"
    let runs = sample.refreshes
    // Runs from phones that opened the app in the 7 days before: the rule's factor needs opens.
    let exact = runs.filter { $0.exact && $0.opensPerDay > 0 }.count
    guard base.enabled else {
      return [
        ParameterFit(
          key: key, count: runs.count,
          refusal: "the base scenario has app.background_refresh off"
            + (runs.isEmpty ? "" : " but the logs show \(runs.count) runs: turn it on with the app's interval"))
      ]
    }
    guard exact >= minimumCount else {
      return [
        ParameterFit(
          key: key, count: runs.count,
          refusal: "\(exact) background refresh runs whose request the log shows, from phones opened in the 7 days "
            + "before; \(minimumCount) needed")
      ]
    }
    return refreshFits(RefreshLikelihood(runs), count: runs.count)
  }

  /// The two fits from the likelihood of `count` requests (see ``backgroundRefresh(_:base:)``).
  static func refreshFits(_ likelihood: RefreshLikelihood, count n: Int) -> [ParameterFit] {
    let key = "app.background_refresh.delay"
    let referenceKey = "app.background_refresh.reference_opens"
    let grid = likelihood.grid()
    let profile = grid.map { likelihood.profile(reference: $0).logLikelihood }
    guard let best = profile.indices.filter({ profile[$0].isFinite }).max(by: { profile[$0] < profile[$1] }) else {
      return [ParameterFit(key: key, count: n, refusal: "the likelihood could not be evaluated on these runs")]
    }
    let maximum = profile[best]
    // No dependence on opens: every run's factor is 1 (a reference below every phone's opens).
    let flat = likelihood.profile(reference: 0)
    let ratio = 2 * (maximum - flat.logLikelihood)
    let p = gsl_cdf_chisq_Q(Swift.max(0, ratio), 1)
    let inside = profile.indices.filter { maximum - profile[$0] <= profileDrop }
    func referenceProfile(_ r: Double) -> Double { maximum - likelihood.profile(reference: r).logLikelihood }
    let low = inside.first! > 0 ? edge(grid[inside.first!], grid[inside.first! - 1], referenceProfile) : grid[0]
    let high =
      inside.last! < grid.count - 1 ? edge(grid[inside.last!], grid[inside.last! + 1], referenceProfile) : grid.last!
    let method =
      "exponential lateness, mean delay x max(1, reference_opens / opens a day), maximum likelihood "
      + "with lower bounds; profile-likelihood interval"
    if p >= 0.05 { return independentRefreshFits(likelihood, p: p, referenceHigh: high, count: n) }
    if inside.last! == grid.count - 1 || inside.first! == 0 {
      return [
        ParameterFit(
          key: key, estimate: likelihood.profile(reference: grid[best]).delay, low: 0, high: .infinity, count: n,
          method: method, override: nil),
        ParameterFit(
          key: referenceKey, count: n,
          refusal: "the likelihood does not fall off within the phones' range of opens: the logs cannot place it"),
      ]
    }
    // The delay's profile: for each delay, the best reference.
    let reference = refine(grid, best) { likelihood.profile(reference: $0).logLikelihood }
    let delay = likelihood.profile(reference: reference).delay
    let peak = Swift.max(maximum, likelihood.profile(reference: reference).logLikelihood)
    func delayProfile(_ candidate: Double) -> Double {
      let values = grid.map { likelihood.logLikelihood(delay: candidate, reference: $0) }
      let top = values.indices.max { values[$0] < values[$1] }!
      let refined = refine(grid, top) { likelihood.logLikelihood(delay: candidate, reference: $0) }
      return peak - Swift.max(values[top], likelihood.logLikelihood(delay: candidate, reference: refined))
    }
    let delays = (0..<400).map { delay * exp(-1.5 + 3 * Double($0) / 399) }
    let delayInside = delays.indices.filter { delayProfile(delays[$0]) <= profileDrop }
    let (first, last) = (delayInside.first ?? 199, delayInside.last ?? 199)
    let delayLow = first > 0 ? edge(delays[first], delays[first - 1], delayProfile) : delays[0]
    let delayHigh = last < delays.count - 1 ? edge(delays[last], delays[last + 1], delayProfile) : delays.last!
    return [
      ParameterFit(
        key: key, estimate: delay, low: delayLow, high: delayHigh, count: n,
        method: method + " (seconds)", override: "\(key)=\(FitText.seconds(delay))"),
      ParameterFit(
        key: referenceKey, estimate: reference, low: low, high: high, count: n,
        method: method + "; depends on opens (likelihood ratio p = \(FitText.number(p, digits: 3)))",
        override: "\(referenceKey)=\(FitText.number(reference))"),
    ]
  }

  /// The fits when the latenesses do not depend on opens (likelihood ratio p ≥ 0.05): the delay alone, every
  /// factor 1 (closed form, chi-square interval), and `reference_opens` set below every phone's opens.
  static func independentRefreshFits(
    _ likelihood: RefreshLikelihood, p: Double, referenceHigh high: Double, count n: Int
  ) -> [ParameterFit] {
    let key = "app.background_refresh.delay"
    let referenceKey = "app.background_refresh.reference_opens"
    let exact = Int(likelihood.exact)
    let flat = likelihood.profile(reference: 0)
    // The delay alone, every factor 1: closed form, profile interval from the chi-square.
    let delay = flat.delay
    let scaled = delay * Double(exact)
    let floor = FitText.number(Swift.max(0.01, (likelihood.opens.first ?? 1) / 2))
    return [
      ParameterFit(
        key: key, estimate: delay, low: 2 * scaled / gsl_cdf_chisq_Pinv(0.975, 2 * Double(exact)),
        high: 2 * scaled / gsl_cdf_chisq_Pinv(0.025, 2 * Double(exact)), count: n,
        method: "exponential lateness by maximum likelihood with lower bounds (seconds); chi-square interval; "
          + "the runs' lateness does not depend on opens (likelihood ratio p = \(FitText.number(p, digits: 3)))",
        override: "\(key)=\(FitText.seconds(delay))"),
      ParameterFit(
        key: referenceKey, estimate: 0, low: 0, high: high, count: n,
        method: "the logs contradict the rule's shape: lateness does not depend on opens (likelihood ratio p = "
          + "\(FitText.number(p, digits: 3))); set below every phone's opens so that it changes nothing",
        override: "\(referenceKey)=\(floor)"),
    ]
  }

  /// Where a profile's drop (`drop`: the log-likelihood below its maximum) crosses ``profileDrop`` between
  /// a point inside the interval and one outside, by bisection.
  static func edge(_ inside: Double, _ outside: Double, _ drop: (Double) -> Double) -> Double {
    var (a, b) = (inside, outside)
    for _ in 0..<40 {
      let middle = (a + b) / 2
      if drop(middle) <= profileDrop { a = middle } else { b = middle }
    }
    return (a + b) / 2
  }

  /// The maximum of `function` near grid point `index`, by golden-section search between its neighbours.
  static func refine(_ grid: [Double], _ index: Int, _ function: (Double) -> Double) -> Double {
    var (a, b) = (grid[Swift.max(0, index - 1)], grid[Swift.min(grid.count - 1, index + 1)])
    let ratio = (5.0.squareRoot() - 1) / 2
    for _ in 0..<60 {
      let (c, d) = (b - ratio * (b - a), a + ratio * (b - a))
      if function(c) > function(d) { b = d } else { a = c }
    }
    return (a + b) / 2
  }
}
