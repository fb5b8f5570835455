/// Which way a benchmark figure improves, read from its unit.
public enum BenchmarkDirection: Sendable, Equatable {
  /// Times (`ns_per_hold`, `ns_per_draw`) and ratios of times (`ratio_to_devices`): smaller is faster.
  case lowerIsBetter
  /// Rates (`million_events_per_s`, `devices_per_s`, `points_per_s`): larger is faster.
  case higherIsBetter

  /// The direction of `unit`, or `nil` for a unit that names neither a time per item (or a ratio of times)
  /// nor a rate: such rows (`percent_of_run`, a difference of two timings that may lie near zero, where a
  /// relative change means nothing) are reported beside a baseline, never gated.
  public init?(unit: String) {
    if unit.hasPrefix("ns_per_") || unit.hasPrefix("ratio_") {
      self = .lowerIsBetter
    } else if unit.hasSuffix("_per_s") {
      self = .higherIsBetter
    } else {
      return nil
    }
  }
}
