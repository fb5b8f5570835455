import CGSL
import WidgetModel

extension FieldEstimators {
  /// What the background wakes say of the data: the share of Background App Refresh runs and of silent
  /// pushes followed by a reload call (no key: it follows from how fast the data changes), and the rate of
  /// change of the one widget the base has reload on a change (`data.on_change`) without pushes. In the
  /// model a run reloads when its fetch finds data newer than the store, which was current when the app
  /// last ran `g` hours before: a run reloads with probability `1 - exp(-rate g)`, fitted by maximum
  /// likelihood over the runs, its interval from the profile likelihood.
  static func wakeReloads(_ sample: FieldSample, base: ScenarioConfiguration) -> [ParameterFit] {
    let runs = sample.backgroundWakes.filter { !$0.silentPush }
    let pushes = sample.backgroundWakes.filter(\.silentPush)
    let reloading = base.widgets.filter { $0.data.onChange != .none }
    let diagnosis =
      reloading.isEmpty
      ? "; no widget of the base reloads on a change (data.on_change: none), so the model's runs never reload" : ""
    var fits = [
      share(runs, key: "app.background_refresh.reload_share", what: "background runs", note: diagnosis),
      share(pushes, key: "system.silent_push.reload_share", what: "silent pushes", note: diagnosis),
    ]
    let candidates = reloading.filter { $0.data.pushes.isEmpty && $0.data.scheduled == nil }
    let kinds = Array(Set(candidates.map(\.dataKey))).sorted()
    guard kinds.count == 1, let kind = candidates.first?.kind else {
      if kinds.count > 1 {
        fits.append(
          ParameterFit(
            key: "widgets[*].data.changes.per_hour", count: runs.count,
            refusal: "several kinds reload on a change (\(kinds.joined(separator: ", "))): a run's reload cannot say"
              + " whose data changed"))
      }
      return fits
    }
    // Every widget of the kind shares its data: one rate, set on each.
    let rate = changeRate(runs, kind: kind, key: "widgets[\(candidates[0].id)].data.changes")
    fits.append(rate)
    for widget in candidates.dropFirst() {
      fits.append(rate.setting(key: "widgets[\(widget.id)].data.changes"))
    }
    return fits
  }

  /// The share of `wakes` followed by a reload call, with its Clopper-Pearson interval; no key sets it.
  private static func share(_ wakes: [BackgroundWake], key: String, what: String, note: String) -> ParameterFit {
    guard wakes.count >= minimumCount else {
      return ParameterFit(key: key, count: wakes.count, refusal: "\(wakes.count) \(what); \(minimumCount) needed")
    }
    let reloaded = wakes.count { $0.reloaded }
    let (low, high) = clopperPearson(reloaded, wakes.count)
    return ParameterFit(
      key: key, estimate: Double(reloaded) / Double(wakes.count), low: low, high: high, count: wakes.count,
      method: "share of \(what) followed by a reload_call within 10 s; Clopper-Pearson interval; no key sets it"
        + " (it follows from how fast the data changes)\(note)",
      override: nil)
  }

  /// The data's changes per hour from the runs: `1 - exp(-rate g)` a run, `g` the hours since the app ran.
  private static func changeRate(_ runs: [BackgroundWake], kind: String, key: String) -> ParameterFit {
    let hours = runs.map { $0.secondsSinceAppRan / 3_600 }
    let reloaded = runs.map { $0.reloaded(kind) }
    let count = reloaded.count { $0 }
    guard runs.count >= minimumCount, count < runs.count else {
      return ParameterFit(
        key: key, count: runs.count,
        refusal: runs.count < minimumCount
          ? "\(runs.count) background runs; \(minimumCount) needed" : "every background run reloaded: no upper bound")
    }
    func logLikelihood(_ rate: Double) -> Double {
      zip(hours, reloaded).reduce(0) { total, run in
        total + (run.1 ? log(-expm1(-rate * run.0)) : -rate * run.0)
      }
    }
    // The score falls with the rate: bisect it on a log scale.
    func score(_ rate: Double) -> Double {
      zip(hours, reloaded).reduce(0) { total, run in
        total + (run.1 ? run.0 / expm1(rate * run.0) : -run.0)
      }
    }
    var (low, high) = (1e-6, 1e3)
    for _ in 0..<200 {
      let middle = sqrt(low * high)
      if score(middle) > 0 { low = middle } else { high = middle }
    }
    let rate = count == 0 ? 0 : sqrt(low * high)
    let peak = count == 0 ? 0 : logLikelihood(rate)
    let cut = 3.841_458_820_694_124 / 2
    func bound(from inside: Double, to outside: Double) -> Double {
      var (inside, outside) = (inside, outside)
      for _ in 0..<200 {
        let middle = sqrt(Swift.max(inside, 1e-9) * outside)
        if peak - logLikelihood(middle) < cut { inside = middle } else { outside = middle }
      }
      return inside
    }
    let lower = count == 0 ? 0 : bound(from: rate, to: 1e-9)
    let upper = bound(from: Swift.max(rate, 1e-9), to: 1e3)
    return ParameterFit(
      key: key + ".per_hour", estimate: rate, low: lower, high: upper, count: runs.count,
      method:
        "background runs followed by a reload_call of \(kind) within 10 s (\(count) of \(runs.count)): a run reloads"
        + " with probability 1 - exp(-rate x hours since the app last ran), by maximum likelihood;"
        + " profile-likelihood interval",
      override: "\(key)={per_hour: \(FitText.number(rate))}")
  }
}

extension ParameterFit {
  /// The same fit of a rate set on another widget's `data.changes` (`key` without `.per_hour`).
  func setting(key: String) -> ParameterFit {
    guard let estimate, let low, let high else { return self }
    return ParameterFit(
      key: key + ".per_hour", estimate: estimate, low: low, high: high, count: count, method: method,
      override: "\(key)={per_hour: \(FitText.number(estimate))}")
  }
}
