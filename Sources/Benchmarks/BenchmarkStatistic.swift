/// Which figure of this run's repetitions a gate compares with the baseline's stored median.
public enum BenchmarkStatistic: String, Sendable, CaseIterable {
  /// The median repetition: the default, as stored in baselines.
  case median
  /// The best repetition (least time, highest rate): noise on a shared machine only ever slows a run, so the
  /// best repetition is the steadiest figure there; a regression it shows is real, though a small one may
  /// hide behind it.
  case best

  /// This statistic of `result`, whose unit improves in `direction`.
  public func figure(of result: BenchmarkResult, direction: BenchmarkDirection?) -> Double {
    switch self {
    case .median: result.median
    case .best: direction == .higherIsBetter ? result.maximum : result.minimum
    }
  }
}
