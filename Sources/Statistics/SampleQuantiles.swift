import CGSL

/// Exact quantiles of a finite sample, for summaries over replications and sweep points.
///
/// Method: the values are sorted (`gsl_sort`) and `gsl_stats_quantile_from_sorted_data` interpolates
/// linearly between order statistics at rank p (n - 1), Hyndman & Fan's definition 7 (also R's and
/// NumPy's default). There is no approximation error in computing the sample quantile; as an estimate of
/// the population quantile its standard error is about sqrt(p (1 - p) / n) / f(q_p). For streams too
/// long to keep, use ``QuantileSketch``.
public struct SampleQuantiles: Sendable {
  /// The sample, sorted ascending.
  public let sorted: [Double]

  /// Sorts a copy of `values`; NaNs are dropped (they have no rank).
  public init(_ values: [Double]) {
    var values = values.filter { !$0.isNaN }
    values.withUnsafeMutableBufferPointer { buffer in
      gsl_sort(buffer.baseAddress, 1, buffer.count)
    }
    sorted = values
  }

  /// A sample already sorted ascending (checked), without sorting it again.
  public init(sorted: [Double]) {
    for index in sorted.indices.dropFirst() {
      precondition(sorted[index - 1] <= sorted[index], "SampleQuantiles(sorted:) takes values sorted ascending")
    }
    self.sorted = sorted
  }

  /// The sample of both samples' values, merged in one pass.
  public static func pooling(_ first: SampleQuantiles, _ second: SampleQuantiles) -> SampleQuantiles {
    var merged: [Double] = []
    merged.reserveCapacity(first.count + second.count)
    var (i, j) = (0, 0)
    while i < first.count || j < second.count {
      if j == second.count || (i < first.count && first.sorted[i] <= second.sorted[j]) {
        merged.append(first.sorted[i])
        i += 1
      } else {
        merged.append(second.sorted[j])
        j += 1
      }
    }
    return SampleQuantiles(sorted: merged)
  }

  public var count: Int { sorted.count }

  /// The p-quantile, p in [0, 1]; NaN for an empty sample.
  public func quantile(_ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let clamped = Swift.min(Swift.max(p, 0), 1)
    return sorted.withUnsafeBufferPointer { gsl_stats_quantile_from_sorted_data($0.baseAddress, 1, $0.count, clamped) }
  }

  public var median: Double { quantile(0.5) }
  public var p95: Double { quantile(0.95) }
  public var p99: Double { quantile(0.99) }
}
