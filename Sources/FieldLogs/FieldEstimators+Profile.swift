import SimulationEngine
import Statistics
import WidgetModel

extension FieldEstimators {
  /// `user.app_opens.profile[HH]`: the share of opens in each local clock hour, with Clopper-Pearson
  /// intervals. The model spreads opens evenly over each phone's waking hours unless `user.app_opens.profile`
  /// weights them. Whether the logs agree with even is tested on where opens fall inside each phone's waking
  /// window (one-sample Kolmogorov-Smirnov); each row's method says which it is, and when they contradict it
  /// a last row sets the profile to the shares (fitted.yaml then spreads opens as the logs do).
  /// The model's weight of an hour is its opens per awake hour: the share of opens over the hour's waking
  /// share under `sleep` (the fitted sleep window), so that the model's sleep does not thin the profile's
  /// edge hours a second time; an hour `sleep` spends wholly asleep takes 0.
  static func opensProfile(_ sample: FieldSample, sleep: SleepWindow) -> [ParameterFit] {
    let total = sample.opensByHour.reduce(0, +)
    guard total >= minimumCount else {
      return [
        ParameterFit(key: "user.app_opens.profile", count: total, refusal: "\(total) opens; \(minimumCount) needed")
      ]
    }
    let (shape, contradicts) = evenSpread(sample.openPositions)
    let shares = sample.opensByHour.enumerated().map { hour, count in
      let awake = sleep.awakeFraction(ofHour: hour)
      return awake > 0 ? Double(count) / Double(total) / awake : 0
    }
    let setting =
      contradicts
      ? [
        ParameterFit(
          key: "user.app_opens.profile", count: total,
          method: "the hourly shares above over each hour's waking share (user.sleep) as weights: the logs "
            + "contradict an even spread over waking hours",
          override: "user.app_opens.profile=[\(shares.map { FitText.number($0, digits: 4) }.joined(separator: ", "))]")
      ] : []
    return sample.opensByHour.enumerated().map { hour, count in
      let (low, high) = clopperPearson(count, total)
      return ParameterFit(
        key: "user.app_opens.profile[\(hour < 10 ? "0" : "")\(hour)]", estimate: Double(count) / Double(total),
        low: low,
        high: high, count: total, method: "share of opens in this local hour; Clopper-Pearson interval; " + shape,
        override: nil)
    } + setting
  }

  /// Whether positions in 0...1 are even: the one-sample KS distance and p-value, and what that says of
  /// the model's rule.
  static func evenSpread(_ positions: [Double]) -> (text: String, contradicts: Bool) {
    guard positions.count >= minimumCount else { return ("too few opens to test the model's even spread", false) }
    let sorted = positions.sorted()
    let n = Double(sorted.count)
    var distance = 0.0
    for (index, value) in sorted.enumerated() {
      distance = Swift.max(distance, abs(Double(index + 1) / n - value), abs(value - Double(index) / n))
    }
    let p = TwoSampleKS.kolmogorovTail((n.squareRoot() + 0.12 + 0.11 / n.squareRoot()) * distance)
    let contradicts = p < 0.05 && distance > 0.05
    let verdict =
      contradicts
      ? "the logs contradict the model's even spread over waking hours: user.app_opens.profile takes the shares"
      : "the logs agree with the model's rule (opens spread evenly over waking hours)"
    return (
      "opens inside each phone's waking window against even: KS distance \(FitText.fixed(distance, 3)), "
        + "p \(FitText.number(p, digits: 3)): \(verdict)", contradicts
    )
  }

  /// The sleep window `fits` set (`user.sleep.from` and `.to`, seconds since midnight), or nil.
  static func fittedSleep(_ fits: [ParameterFit]) -> SleepWindow? {
    func time(_ key: String) -> TimeOfDay? {
      guard let seconds = fits.first(where: { $0.key == key })?.estimate, seconds.isFinite else { return nil }
      let minutes = (Int(seconds / 60) % 1_440 + 1_440) % 1_440
      return TimeOfDay(hours: minutes / 60, minutes: minutes % 60)
    }
    guard let from = time("user.sleep.from"), let to = time("user.sleep.to") else { return nil }
    return SleepWindow(from: from, to: to)
  }
}
