import Statistics

/// Where a second falls among an estimate's blocks and stretches, and the stretches the fit leaves out.
extension SampledLoadEstimate {
  /// A stretch the fit leaves out: a fan-out's walk (its count taken whole), or a stretch of seconds the
  /// phones shared (a rate of its own).
  struct CertainStretch {
    let stretch: FanOutStretch
    let isShared: Bool
  }

  /// The fan-outs' stretches and the shared ones (never inside one) as one ascending list; a shared
  /// stretch's requests are spread evenly over its seconds.
  static func merging(_ fanOuts: [FanOutStretch], _ shared: [Range<Int>]) -> [CertainStretch] {
    var merged: [CertainStretch] = []
    merged.reserveCapacity(fanOuts.count + shared.count)
    var next = 0
    for seconds in shared {
      while next < fanOuts.count && fanOuts[next].seconds.lowerBound < seconds.lowerBound {
        merged.append(CertainStretch(stretch: fanOuts[next], isShared: false))
        next += 1
      }
      let even = Array(repeating: 1 / Double(seconds.count), count: seconds.count)
      merged.append(CertainStretch(stretch: FanOutStretch(seconds: seconds, weights: even), isShared: true))
    }
    for walk in fanOuts[next...] { merged.append(CertainStretch(stretch: walk, isShared: false)) }
    return merged
  }

  /// Which of `count` ranges (ascending, apart; the `index`th is `range(index)`) holds `second`, if one does.
  static func index(of second: Int, in count: Int, _ range: (Int) -> Range<Int>) -> Int? {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if range(middle).upperBound <= second { low = middle + 1 } else { high = middle }
    }
    return low < count && range(low).contains(second) ? low : nil
  }

  /// The index of the block holding `second` (the first block for a second before it); blocks not empty.
  func block(at second: Int) -> Int { SampledLoadEstimate.block(at: second, of: blocks) }

  /// The index of the block of `blocks` (in order, not empty) holding `second` (the first for one before).
  static func block(at second: Int, of blocks: [RateBlock]) -> Int {
    var low = 0
    var high = blocks.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if blocks[middle].start <= second { low = middle } else { high = middle }
    }
    return low
  }
}
