import CGSL
import WidgetModel

extension FieldEstimators {
  /// `system.silent_push.delay` and `system.widget_push.delay` from the server's sends matched to the app's
  /// deliveries (exact delays and lower bounds, as ``PushDeliveries`` reads them), and the share of sends
  /// delivered, which no key sets but the goodness of fit compares by hour (`delivery.csv`).
  static func pushes(_ sample: FieldSample) -> [ParameterFit] {
    [(SentPush.silent, sample.silentPushDeliveries), (.widget, sample.widgetPushDeliveries)].flatMap {
      push, deliveries in
      let name = push == .silent ? "silent_push" : "widget_push"
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
      let delay =
        exact.count >= minimumCount
        ? familyFit(
          key: key, setting: "system.\(name).delay", exact: exact, censored: censored, count: deliveries.fitting.count)
        : ParameterFit(
          key: key, count: exact.count,
          refusal: "\(exact.count) \(push.rawValue) pushes delivered while the phone could take them at once; "
            + "\(minimumCount) needed")
      return [delay, deliveryShare(key: "\(name).delivery_share", deliveries)]
    }
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
