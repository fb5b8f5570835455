import Statistics

extension SampledLoadEstimate {
  /// The variance of a block's sample count: `dispersion` times its count, and each hour's spread
  /// (``PhoneSpread/hours``) in the share of the hour's seconds the block holds. A phone's requests that
  /// come together fall in a block together, so the spread is shared in proportion to the seconds, not their
  /// square: the wider of the two ways to take it.
  static func blockVariance(_ block: RateBlock, dispersion: Double, phoneSpread: [Double]) -> Double {
    var variance = dispersion * Double(block.total)
    guard !phoneSpread.isEmpty else { return variance }
    var second = block.start
    let end = block.start + block.seconds
    while second < end {
      let hour = second / 3_600
      let stop = Swift.min(end, (hour + 1) * 3_600)
      if hour < phoneSpread.count { variance += phoneSpread[hour] * Double(stop - second) / 3_600 }
      second = stop
    }
    return variance
  }

  /// Per block, how far its fleet rate may be off: the square root of its sample count's variance
  /// (``blockVariance(_:dispersion:phoneSpread:)``), scaled, per observed second.
  static func rateErrors(_ blocks: [RateBlock], scale: Double, dispersion: Double, phoneSpread: [Double]) -> [Double] {
    blocks.map { block in
      let variance = blockVariance(block, dispersion: dispersion, phoneSpread: phoneSpread)
      return block.observed > 0 ? scale * variance.squareRoot() / Double(block.observed) : 0
    }
  }

  /// The dispersion of `block`'s sample count: its variance (``blockVariance(_:dispersion:phoneSpread:)``)
  /// over the count.
  func blockDispersion(_ block: RateBlock) -> Double {
    block.total > 0
      ? SampledLoadEstimate.blockVariance(block, dispersion: dispersion, phoneSpread: phoneSpread.hours)
        / Double(block.total)
      : dispersion
  }

  /// The variance a figure takes from the sample's level (``PhoneSpread/level``): every piece's rate and
  /// certain count off by the same share, the figure by that share of `sum weight * (rate + shift)` (weights in
  /// the model's order).
  static func levelVariance(
    _ level: Double, weights: [Double], pieces: [PerSecondLoadModel.Piece], order: [Int]
  ) -> Double {
    guard level > 0 else { return 0 }
    var moved = 0.0
    for (weight, index) in zip(weights, order) { moved += weight * (pieces[index].rate + pieces[index].shift) }
    return level * moved * moved
  }
}
