/// Which way a metric gets worse, for the metrics where that is plain: a gate that fails only the other way
/// can fail only on an improvement, and passes every regression.
extension Gate {
  /// The direction in which `metric` is worse; nil when it depends on the reader (fetches, views, requests).
  ///
  /// A rise is worse for what the phone pays (energy, battery, CPU, radio tails, drains, low-power hours),
  /// for staleness and stale or placeholder views, and for what was lost (exhausted budgets, jetsam,
  /// throttled, rejected or lost updates, event delivery times); a fall is worse for the lowest charge.
  public static func worseDirection(of metric: String) -> Direction? {
    if lowerIsWorse.contains(metric) { return .lowerIsWorse }
    if higherIsWorseParts.contains(where: metric.contains) { return .higherIsWorse }
    return nil
  }

  private static let lowerIsWorse: Set<String> = ["min_state_of_charge"]
  private static let higherIsWorseParts = [
    "joules", "mwh", "battery_percent", "cpu_time", "radio_tail", "drains", "low_power", "staleness", "stale_",
    "placeholder", "exhausted", "jetsam", "throttled", "rejected", "lost", "event_delivery", "event_fanout",
  ]

  /// Why this gate can fail only on an improvement, or nil: it watches the metric's better direction.
  public var directionWarning: String? {
    guard let worse = Gate.worseDirection(of: metric), worse != direction else { return nil }
    let flipped = Gate(metric: metric, widget: widget, direction: worse, tolerance: tolerance, floor: floor)
    let (watched, better) = direction == .higherIsWorse ? ("rise", "higher") : ("fall", "lower")
    return "gate \(self) fails only on a \(watched) of \(metric), and a \(better) \(metric) is better: it can "
      + "fail only on an improvement and passes any regression (did you mean \(flipped)?)"
  }
}
