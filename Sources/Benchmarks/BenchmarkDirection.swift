/// Which way a benchmark figure improves, read from its unit.
public enum BenchmarkDirection: Sendable, Equatable {
  /// Times (`ns_per_hold`, `ns_per_draw`), ratios of times (`ratio_to_devices`) and shares of one
  /// (`percent_of_run`): smaller is faster.
  case lowerIsBetter
  /// Rates (`million_events_per_s`, `devices_per_s`, `points_per_s`): larger is faster.
  case higherIsBetter

  /// The direction of `unit`, or `nil` for a unit that names neither a time per item (or a ratio of times)
  /// nor a rate.
  public init?(unit: String) {
    if unit.hasPrefix("ns_per_") || unit.hasPrefix("ratio_") || unit.hasPrefix("percent_") {
      self = .lowerIsBetter
    } else if unit.hasSuffix("_per_s") {
      self = .higherIsBetter
    } else {
      return nil
    }
  }
}
