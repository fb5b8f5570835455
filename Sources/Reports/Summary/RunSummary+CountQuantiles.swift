extension RunSummary {
  /// The p-quantile (Hyndman-Fan 7, as `SampleQuantiles`) of per-minute counts, most of them zero: only the
  /// non-zero counts are sorted.
  static func quantileOfCounts(_ counts: [Int64], _ p: Double) -> Double {
    quantileOfCounts(counts, of: counts.count, p)
  }

  /// The same for `count` counts of which `some` are listed (in any order) and the rest are zero.
  static func quantileOfCounts(_ some: [Int64], of count: Int, _ p: Double) -> Double {
    precondition(some.count <= count, "\(some.count) counts listed of \(count)")
    guard count > 0 else { return .nan }
    let rank = p * Double(count - 1)
    let lower = Int(rank.rounded(.down))
    let upper = Swift.min(lower + 1, count - 1)
    // The `index`th smallest count. A phone's minutes hold a few requests each: read from a histogram of the
    // counts rather than a sort of them (the same values). No closure: its context would be allocated.
    if let largest = some.max(), largest < 4_096, some.allSatisfy({ $0 >= 0 }) {
      var histogram = [Int](repeating: 0, count: Int(largest) + 1)
      for counted in some { histogram[Int(counted)] += 1 }
      histogram[0] += count - some.count
      let (low, high) = (smallest(lower, of: histogram), smallest(upper, of: histogram))
      return low + (rank - Double(lower)) * (high - low)
    }
    let nonZero = some.filter { $0 != 0 }.sorted()
    let zeros = count - nonZero.count
    let low = lower < zeros ? 0 : Double(nonZero[lower - zeros])
    let high = upper < zeros ? 0 : Double(nonZero[upper - zeros])
    return low + (rank - Double(lower)) * (high - low)
  }

  /// The `index`th smallest of the counts `histogram` holds (by count: how many there are of each).
  private static func smallest(_ index: Int, of histogram: [Int]) -> Double {
    var seen = 0
    for (requests, minutes) in histogram.enumerated() {
      seen += minutes
      if index < seen { return Double(requests) }
    }
    return Double(histogram.count - 1)  // not reached: the histogram holds every count
  }
}
