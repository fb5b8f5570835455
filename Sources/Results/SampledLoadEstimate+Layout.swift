import SimulationEngine
import Statistics

extension SampledLoadEstimate {
  /// The fleet's load over the run as the pieces of a ``PerSecondLoadModel``, from fitted blocks and the
  /// stretches taken whole, with how far each piece's rate or certain count may be off.
  ///
  /// Each block's seconds are at its rate, cut where a stretch taken whole passes; such a stretch's own
  /// requests are the sample's over it less what the rate around it accounts for, shared among its seconds
  /// as its weights say, for certain. A walk's count is Poisson at most. A shared stretch is a rate of its
  /// own instead (the sample's share of phones acting then, scaled; each second of the fleet draws its count
  /// at it), off by as much as its quasi-Poisson count.
  struct Layout {
    /// In time order.
    var pieces: [PerSecondLoadModel.Piece] = []
    /// Per piece: its block, its stretch (if any) and its share of the stretch.
    var owners: [(block: Int?, walk: Int?, weight: Double)] = []
    /// Per stretch, the fleet's requests over it beyond the rate around it, and how far that may be off.
    var walkTotals: [Double] = []
    var walkErrors: [Double] = []
    /// Per stretch, the fleet's rate over it when it is a shared one (its sample count per second, scaled).
    var sharedRates: [Double?] = []
    /// Per block, how far its fleet rate may be off: its sample count has variance about `D S`, and more where
    /// the phones share the block's hours unevenly (``PhoneSpread/hours``).
    let blockErrors: [Double]
    /// The relative variance every rate shares (``PhoneSpread/level``).
    let level: Double
    let model: PerSecondLoadModel

    /// With `clump`, the requests come in clumps of that size (``ClumpedCount``); `phoneSpread` is how far the
    /// rates are off because the sample's phones are not the fleet's others. With `lowering`, each shared
    /// stretch's rate is that many of its own standard errors lower.
    init(
      _ counts: UnsafeBufferPointer<UInt32>, blocks: [RateBlock], stretches: [CertainStretch], scale: Double,
      dispersion: Double, clump: Int? = nil, phoneSpread: PhoneSpread = .none, lowering: Double = 0
    ) {
      blockErrors = SampledLoadEstimate.rateErrors(
        blocks, scale: scale, dispersion: dispersion, phoneSpread: phoneSpread.hours)
      level = phoneSpread.level
      var nextWalk = 0
      for (index, block) in blocks.enumerated() {
        var second = block.start
        let end = block.start + block.seconds
        while second < end {
          while nextWalk < stretches.count && stretches[nextWalk].stretch.seconds.upperBound <= second { nextWalk += 1 }
          if nextWalk < stretches.count && stretches[nextWalk].stretch.seconds.contains(second) {
            let walk = stretches[nextWalk].stretch
            if walkTotals.count == nextWalk {
              var total: UInt64 = 0
              for inside in walk.seconds { total += UInt64(counts[inside]) }
              // What the rate around accounts for: each second at the rate of its own block (a stretch may
              // cross from one block into the next).
              var others = 0.0
              for inside in walk.seconds {
                others += blocks[SampledLoadEstimate.block(at: inside, of: blocks)].rate
              }
              walkTotals.append(scale * Swift.max(0, Double(total) - others))
              walkErrors.append(
                scale * (Swift.max(1, stretches[nextWalk].isShared ? dispersion : 1) * Double(total)).squareRoot())
              let lowered = Swift.max(
                0, Double(total) - lowering * (Swift.max(1, dispersion) * Double(total)).squareRoot())
              sharedRates.append(stretches[nextWalk].isShared ? scale * lowered / Double(walk.seconds.count) : nil)
            }
            // Seconds alike (the same share of the walk) make one piece.
            let weight = walk.weights[second - walk.seconds.lowerBound]
            var stop = second + 1
            while stop < Swift.min(end, walk.seconds.upperBound)
              && walk.weights[stop - walk.seconds.lowerBound] == weight
            {
              stop += 1
            }
            if let rate = sharedRates[nextWalk] {
              // The fleet's phones share the moment's rate, not its count: each second still draws its own.
              pieces.append(.init(rate: rate, seconds: stop - second))
              owners.append((nil, nextWalk, weight))
            } else {
              pieces.append(
                .init(rate: block.rate * scale, seconds: stop - second, shift: walkTotals[nextWalk] * weight))
              owners.append((index, nextWalk, weight))
            }
            second = stop
          } else {
            let stop = Swift.min(
              end, nextWalk < stretches.count ? stretches[nextWalk].stretch.seconds.lowerBound : end)
            pieces.append(.init(rate: block.rate * scale, seconds: stop - second))
            owners.append((index, nil, 0))
            second = stop
          }
        }
      }
      model = PerSecondLoadModel(pieces: pieces, dispersion: dispersion, clump: clump)
    }

    /// The sampling variance of a figure that moves with the pieces' rates as `sensitivities` say (in the
    /// model's order): the blocks' and the stretches' errors, each carried by the pieces it owns.
    func samplingVariance(_ sensitivities: [Double]) -> Double {
      var byBlock = Array(repeating: 0.0, count: blockErrors.count)
      var byWalk = Array(repeating: 0.0, count: walkTotals.count)
      for (weight, index) in zip(sensitivities, model.order) {
        if let block = owners[index].block { byBlock[block] += weight }
        // A piece's certain count is its share of the stretch's total.
        if let walk = owners[index].walk { byWalk[walk] += weight * owners[index].weight }
      }
      var variance = 0.0
      for (weight, error) in zip(byBlock, blockErrors) { variance += weight * weight * error * error }
      for (weight, error) in zip(byWalk, walkErrors) { variance += weight * weight * error * error }
      return variance
        + SampledLoadEstimate.levelVariance(level, weights: sensitivities, pieces: pieces, order: model.order)
    }
  }
}
