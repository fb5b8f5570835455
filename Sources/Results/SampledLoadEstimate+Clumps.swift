import Statistics

extension SampledLoadEstimate {
  /// The size of the clumps the sample's requests come in (``ClumpedCount``), or nil for the negative
  /// binomial: from the series' `dispersion` and its third cumulant per request, the third central moment of
  /// its counts about their blocks' rates over their total (seconds `skipped` left out). A phone's clump is
  /// its own, so the sample's requests come in the same clumps as the whole fleet's, and the two moments per
  /// request are the fleet's too. A rate that moves within a block adds to the third moment, and so leans
  /// the choice towards the negative binomial's heavier tail. A small sample's third moment is itself
  /// uncertain: clumps are taken only where its upper end (two standard errors up, the error from the sum of
  /// the sixth powers) is still below the negative binomial's.
  static func clumpSize(
    _ counts: UnsafeBufferPointer<UInt32>, blocks: [RateBlock], skipped: [Bool]?, dispersion: Double
  ) -> Int? {
    guard dispersion > ClumpedCount.leastDispersion else { return nil }
    var (cubes, sixths, total) = (0.0, 0.0, 0.0)
    for block in blocks where block.observed > 0 {
      let rate = block.rate
      for second in block.start..<(block.start + block.seconds) where !(skipped?[second] ?? false) {
        let deviation = Double(counts[second]) - rate
        let cube = deviation * deviation * deviation
        cubes += cube
        sixths += cube * cube
      }
      total += Double(block.total)
    }
    guard total > 0 else { return nil }
    let skew = cubes / total
    guard ClumpedCount.size(dispersion: dispersion, skew: skew + 2 * sixths.squareRoot() / total) != nil else {
      return nil
    }
    return ClumpedCount.size(dispersion: dispersion, skew: skew)
  }
}
