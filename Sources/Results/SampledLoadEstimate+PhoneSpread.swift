import Statistics

extension SampledLoadEstimate {
  /// Per UTC hour, the variance of the sample's count over the hour that its phones' uneven shares add beyond
  /// `dispersion` times the count: over `phones` phones whose requests in the hour square to `squares[h]` in
  /// sum, `sum n^2 - (sum n)^2 / phones - dispersion * sum n` (at least 0). Requests that come together over
  /// minutes (an order's updates) leave the dispersion of successive seconds near 1, yet a sample of other
  /// phones would have held other orders: that is how far the sample's rate may be off.
  static func phoneSpread(
    _ counts: UnsafeBufferPointer<UInt32>, phones: Int, squares: [UInt64], dispersion: Double
  ) -> [Double] {
    guard phones > 0, squares.count * 3_600 == counts.count else { return [] }
    var spread = Array(repeating: 0.0, count: squares.count)
    for hour in squares.indices {
      var total = 0.0
      for second in (hour * 3_600)..<((hour + 1) * 3_600) { total += Double(counts[second]) }
      let variance = Double(squares[hour]) - total * total / Double(phones)
      spread[hour] = Swift.max(0, variance - dispersion * total)
    }
    return spread
  }

  /// The variance of a block's sample count: `dispersion` times its count, and each hour's
  /// ``phoneSpread`` in the share of the hour's seconds the block holds. A phone's requests that come
  /// together fall in a block together, so the spread is shared in proportion to the seconds, not their
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

  /// The dispersion of `block`'s sample count: its variance (``blockVariance(_:dispersion:phoneSpread:)``)
  /// over the count.
  func blockDispersion(_ block: RateBlock) -> Double {
    block.total > 0
      ? SampledLoadEstimate.blockVariance(block, dispersion: dispersion, phoneSpread: phoneSpread) / Double(block.total)
      : dispersion
  }

  /// Per block, how far its fleet rate may be off: the square root of its sample count's variance
  /// (``blockVariance(_:dispersion:phoneSpread:)``), scaled, per observed second.
  static func rateErrors(_ blocks: [RateBlock], scale: Double, dispersion: Double, phoneSpread: [Double]) -> [Double] {
    blocks.map { block in
      let variance = blockVariance(block, dispersion: dispersion, phoneSpread: phoneSpread)
      return block.observed > 0 ? scale * variance.squareRoot() / Double(block.observed) : 0
    }
  }
}
