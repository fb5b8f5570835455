import CGSL
import WidgetModel

extension FieldEstimators {
  /// `system.silent_push.delay` and `system.widget_push.delay` from the server's sends matched to the app's
  /// deliveries (exact delays and lower bounds, as ``PushDeliveries`` reads them), and the share of sends
  /// delivered, which no key sets but the goodness of fit compares by hour (`delivery.csv`).
  static func pushes(_ sample: FieldSample) -> [ParameterFit] {
    [(PushKind.silent, sample.silentPushDeliveries), (.widget, sample.widgetPushDeliveries)].flatMap {
      push, deliveries in
      let name = push.row.capsSection.description
      let key = "system.\(name).delay.mean"
      guard deliveries.sentCount > 0 else {
        return [
          ParameterFit(
            key: key, count: 0, refusal: "no \(push.rawValue) pushes in a server log (--server-log) for these phones")
        ]
      }
      // Many deliveries with no send before them: the send log does not cover these phones or dates.
      let logged = deliveries.deliveredCount + deliveries.unmatched
      if deliveries.unmatched * 10 > logged {
        let refusal =
          "\(deliveries.unmatched) of \(logged) \(push.rawValue) pushes the app logged match no send in the "
          + "server log: does it cover these phones and dates?"
        return [
          ParameterFit(key: key, count: logged, refusal: refusal),
          deliveryShare(key: "\(name).delivery_share", deliveries),
        ]
      }
      let exact = deliveries.fitting.filter(\.exact).map(\.seconds)
      let censored = deliveries.fitting.filter { !$0.exact }.map(\.seconds)
      guard exact.count >= minimumCount else {
        let refusal =
          "\(exact.count) \(push.rawValue) pushes delivered while the phone could take them at once; "
          + "\(minimumCount) needed"
        return [
          ParameterFit(key: key, count: exact.count, refusal: refusal),
          deliveryShare(key: "\(name).delivery_share", deliveries),
        ]
      }
      let count = deliveries.fitting.count
      // The model loses silent pushes (`loss`); a WidgetKit push's loss has no key yet.
      let fitted =
        push == .silent
        ? lossyFit(name: name, exact: exact, censored: censored, count: count)
        : familyFit(key: key, setting: "system.\(name).delay", exact: exact, censored: censored, count: count)
      return fitted + [deliveryShare(key: "\(name).delivery_share", deliveries)]
    }
  }

  /// `system.NAME.delay` and `system.NAME.loss` fitted together: a push may never arrive, so a send with no
  /// delivery is lost or not yet delivered at its lower bound, and taking every such bound for a late delivery
  /// stretches the delay (hours-long bounds of lost pushes). Each family is fitted with and without the loss;
  /// AIC chooses among all eight. The loss is set only when a model with it wins.
  static func lossyFit(name: String, exact: [Double], censored: [Double], count: Int) -> [ParameterFit] {
    let (key, lossKey) = ("system.\(name).delay.mean", "system.\(name).loss")
    let plain = LatenessFamily.allCases.compactMap { $0.fit(exact: exact, censored: censored) }
    let lossy = LatenessFamily.allCases.compactMap { $0.fit(exact: exact, censored: censored, loss: true) }
    guard let best = (plain + lossy).min(by: { $0.aic < $1.aic }) else {
      return [ParameterFit(key: key, count: count, refusal: "no family's likelihood could be maximised")]
    }
    let lost = best.loss != nil
    let others = (plain + lossy).filter { $0.family != best.family || ($0.loss == nil) != (best.loss == nil) }
      .map { "\($0.family.rawValue)\($0.loss == nil ? "" : "+loss") \(FitText.number($0.aic - best.aic))" }
    let delay = ParameterFit(
      key: key, estimate: best.mean, low: best.meanLow, high: best.meanHigh, count: count,
      method: "\(best.family.rawValue)\(lost ? " with a share never delivered" : "") by maximum likelihood with "
        + "lower bounds (seconds), chosen by AIC (ΔAIC: \(others.joined(separator: ", "))); delta-method interval",
      override: "system.\(name).delay=\(best.family.yaml(best.parameters))")
    let delayRows = [delay] + parameterRows(best, setting: "system.\(name).delay", count: count)
    guard let withLoss = lossy.min(by: { $0.aic < $1.aic }), let share = withLoss.loss,
      let low = withLoss.lossLow, let high = withLoss.lossHigh
    else {
      return delayRows + [
        ParameterFit(key: lossKey, count: count, refusal: "no family's likelihood with a loss converged")
      ]
    }
    let verdict =
      lost
      ? "set"
      : "not set: the best model with a loss is ΔAIC \(FitText.number(withLoss.aic - best.aic)) behind the best "
        + "without"
    let loss = ParameterFit(
      key: lossKey, estimate: share, low: low, high: high, count: count,
      method: "share of sends never delivered, fitted with the delay (\(withLoss.family.rawValue)); an undelivered "
        + "send is lost or not yet delivered at its lower bound; logit-scale delta-method interval; \(verdict)",
      override: lost ? "\(lossKey)=\(FitText.number(share, digits: 4))" : nil)
    return delayRows + [loss]
  }

  /// The share of sends delivered, with the Clopper-Pearson interval (sends counted as independent).
  static func deliveryShare(key: String, _ deliveries: PushDeliveries) -> ParameterFit {
    let (n, k) = (deliveries.sentCount, deliveries.deliveredCount)
    let (low, high) = clopperPearson(k, n)
    return ParameterFit(
      key: key, estimate: Double(k) / Double(n), low: low, high: high, count: n,
      method: "sends the app saw arrive (server log matched to the app log); Clopper-Pearson interval; "
        + "no key sets it (delivery.csv has it by hour)"
        + (deliveries.unmatched > 0 ? "; \(deliveries.unmatched) logged deliveries matched no send" : ""),
      override: nil)
  }

  /// The Clopper-Pearson 95% interval of `k` successes in `n` trials.
  static func clopperPearson(_ k: Int, _ n: Int) -> (low: Double, high: Double) {
    guard n > 0 else { return (0, 1) }
    let low = k == 0 ? 0 : betaQuantile(0.025, Double(k), Double(n - k + 1))
    let high = k == n ? 1 : betaQuantile(0.975, Double(k + 1), Double(n - k))
    return (low, high)
  }

  /// The beta distribution's `p` quantile: GSL's inverse, or where it gives up (a NaN for very unequal
  /// shapes), bisection on the distribution function to 1e-12.
  static func betaQuantile(_ p: Double, _ a: Double, _ b: Double) -> Double {
    let direct = gsl_cdf_beta_Pinv(p, a, b)
    if direct.isFinite { return direct }
    var (low, high) = (0.0, 1.0)
    while high - low > 1e-12 {
      let middle = (low + high) / 2
      if gsl_cdf_beta_P(middle, a, b) < p { low = middle } else { high = middle }
    }
    return (low + high) / 2
  }
}
