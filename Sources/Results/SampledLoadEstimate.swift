import SimulationEngine

/// A figure estimated from a sample of the fleet, with its 95% interval: where the whole fleet's own figure
/// would fall (`low`...`high`), and the part of that width the sample's size accounts for
/// (`samplingHalfWidth`: more simulated phones narrow it; the rest is the whole fleet's own second-to-second
/// chance, which no sample removes).
public struct SampledInterval: Sendable, Equatable {
  public let low: Double
  public let high: Double
  public let samplingHalfWidth: Double

  public init(low: Double, high: Double, samplingHalfWidth: Double) {
    self.low = low
    self.high = high
    self.samplingHalfWidth = samplingHalfWidth
  }
}

/// The whole fleet's per-second load estimated from a sample of its phones, one request series at a time
/// (see docs/model.md, "Per-second load from a sample").
///
/// Each simulated phone stands for `scale` real ones. Multiplying a sample's count in a second by `scale`
/// gives the right mean but `scale` times the variance of the real fleet's count, so its p99 and busiest
/// second are far too high. Instead: the rate of the sample's requests over time is fitted
/// (``DyadicRateFit``: blocks as short as the counts show where the rate jumps, such as an event's fan-out,
/// hours long where it drifts), scaled to the fleet, and the fleet's count in each second is taken as
/// quasi-Poisson at that rate (``PerSecondLoadModel``), with the dispersion the sample shows. The p99 is that
/// mixture's over the run's seconds; the busiest second is the median of its maximum.
package struct SampledLoadEstimate {
  /// Rate blocks of the fitted series, scaled to the fleet.
  let blocks: [RateBlock]
  let scale: Double
  let dispersion: Double
  /// Stretches of a fan-out (``FanOutWindows``), ascending, and the fleet's requests each of their seconds
  /// holds from it: counted over the stretch, at an even pace, not drawn.
  let walks: [FanOutStretch]
  /// Per walk, the fleet's pushes over it that the walk itself sends.
  let walkTotals: [Double]
  let p99: Double
  let p99Interval: SampledInterval
  let peak: Double
  let peakInterval: SampledInterval
  /// The second the estimated busiest second falls in: in the busiest block (or fan-out), the sample's
  /// busiest second.
  let peakSecond: Int

  /// The estimate from `counts`, the sample's requests per second, with `walks` the stretches of seconds
  /// in which the servers walk the fleet at a set pace (left out of the fit; taken whole).
  package init(_ counts: UnsafeBufferPointer<UInt32>, scale: Double, walks: [FanOutStretch] = []) {
    self.scale = scale
    self.walks = walks
    var skipped: [Bool] = []
    if !walks.isEmpty {
      skipped = Array(repeating: false, count: counts.count)
      for walk in walks { for second in walk.seconds { skipped[second] = true } }
    }
    // Requests that come in clusters make noise look like structure to a Poisson fit: the fit weighs the
    // counts by the dispersion they show.
    let (dispersion, blocks) = skipped.withUnsafeBufferPointer { marks in
      let skipped = walks.isEmpty ? nil : marks
      let dispersion = DyadicRateFit.dispersion(counts, skipped: skipped)
      return (dispersion, DyadicRateFit.blocks(counts, dispersion: dispersion, skipped: skipped))
    }
    self.blocks = blocks
    self.dispersion = dispersion
    let (pieces, owners, walkTotals, walkErrors) = SampledLoadEstimate.pieces(
      counts, blocks: blocks, walks: walks, scale: scale)
    self.walkTotals = walkTotals
    let model = PerSecondLoadModel(pieces: pieces, dispersion: dispersion)
    // How far each block's rate may be off: its sample count has variance about D S; and each
    // fan-out's count, Poisson at most.
    let blockErrors = blocks.map { block in
      block.observed > 0 ? scale * (dispersion * Double(block.total)).squareRoot() / Double(block.observed) : 0
    }
    func samplingVariance(_ sensitivities: [Double]) -> Double {
      var byBlock = Array(repeating: 0.0, count: blocks.count)
      var byWalk = Array(repeating: 0.0, count: walkTotals.count)
      for (weight, index) in zip(sensitivities, model.order) {
        byBlock[owners[index].block] += weight
        // A piece's certain count is its share of the walk's total.
        if let walk = owners[index].walk { byWalk[walk] += weight * owners[index].weight }
      }
      var variance = 0.0
      for (weight, error) in zip(byBlock, blockErrors) { variance += weight * weight * error * error }
      for (weight, error) in zip(byWalk, walkErrors) { variance += weight * weight * error * error }
      return variance
    }
    let (p99, p99Weights) = model.quantile(0.99)
    let p99Half = SampledLoadEstimate.z * samplingVariance(p99Weights).squareRoot()
    self.p99 = p99
    p99Interval = SampledInterval(
      low: Swift.max(0, p99 - p99Half), high: p99 + p99Half, samplingHalfWidth: p99Half)
    let (peak, peakWeights) = model.medianBusiestSecond()
    self.peak = peak
    peakInterval = SampledLoadEstimate.busiestSecondInterval(
      peak, model, samplingVariance: samplingVariance(peakWeights))
    peakSecond = SampledLoadEstimate.busiestSecond(counts, blocks: blocks, pieces: pieces, model: model)
  }

  /// The busiest piece's seconds (pieces were built in time order): there, the sample's busiest second.
  private static func busiestSecond(
    _ counts: UnsafeBufferPointer<UInt32>, blocks: [RateBlock], pieces: [PerSecondLoadModel.Piece],
    model: PerSecondLoadModel
  ) -> Int {
    var second = 0
    if let busiest = model.order.first {
      let start = blocks[0].start + pieces[..<busiest].reduce(0) { $0 + $1.seconds }
      second = start
      for candidate in start..<(start + pieces[busiest].seconds) where counts[candidate] > counts[second] {
        second = candidate
      }
    }
    return second
  }

  /// The pieces of the fleet's load: each block's seconds at its rate, cut where the fan-outs' walks pass,
  /// with each piece's block, walk and share of the walk; and per walk, the fleet's requests it sends and how
  /// far that may be off. A fan-out's own requests are the sample's over the stretch less what the rate
  /// around it accounts for, shared among its seconds as the walks' time in each.
  private static func pieces(
    _ counts: UnsafeBufferPointer<UInt32>, blocks: [RateBlock], walks: [FanOutStretch], scale: Double
  ) -> (
    pieces: [PerSecondLoadModel.Piece], owners: [(block: Int, walk: Int?, weight: Double)], walkTotals: [Double],
    walkErrors: [Double]
  ) {
    var walkTotals: [Double] = []
    var walkErrors: [Double] = []
    var pieces: [PerSecondLoadModel.Piece] = []
    var owners: [(block: Int, walk: Int?, weight: Double)] = []
    var nextWalk = 0
    for (index, block) in blocks.enumerated() {
      var second = block.start
      let end = block.start + block.seconds
      while second < end {
        while nextWalk < walks.count && walks[nextWalk].seconds.upperBound <= second { nextWalk += 1 }
        if nextWalk < walks.count && walks[nextWalk].seconds.contains(second) {
          let walk = walks[nextWalk]
          if walkTotals.count == nextWalk {
            var total: UInt64 = 0
            for inside in walk.seconds { total += UInt64(counts[inside]) }
            let others = block.rate * Double(walk.seconds.count)
            walkTotals.append(scale * Swift.max(0, Double(total) - others))
            walkErrors.append(scale * Double(total).squareRoot())
          }
          // Seconds alike (the same share of the walk) make one piece.
          let weight = walk.weights[second - walk.seconds.lowerBound]
          var stop = second + 1
          while stop < Swift.min(end, walk.seconds.upperBound) && walk.weights[stop - walk.seconds.lowerBound] == weight
          {
            stop += 1
          }
          pieces.append(
            .init(rate: block.rate * scale, seconds: stop - second, shift: walkTotals[nextWalk] * weight))
          owners.append((index, nextWalk, weight))
          second = stop
        } else {
          let stop = Swift.min(end, nextWalk < walks.count ? walks[nextWalk].seconds.lowerBound : end)
          pieces.append(.init(rate: block.rate * scale, seconds: stop - second))
          owners.append((index, nil, 0))
          second = stop
        }
      }
    }
    return (pieces, owners, walkTotals, walkErrors)
  }

  /// The fitted fleet rate in second `second` (requests per second), with a fan-out's own requests.
  func rate(at second: Int) -> Double {
    var rate = blocks.isEmpty ? 0 : blocks[block(at: second)].rate * scale
    if let walk = walks.firstIndex(where: { $0.seconds.contains(second) }) {
      rate += walkTotals[walk] * walks[walk].weights[second - walks[walk].seconds.lowerBound]
    }
    return rate
  }

  /// The fleet's fitted bytes per second in each block, once ``peakBytes(blockTotals:dispersion:)`` set them (what the servers
  /// receive: the fetches' bytes).
  var byteRates: [Double] = []

  /// The fitted fleet bytes fetched in second `second` (nil without ``byteRates``).
  func bytesRate(at second: Int) -> Double? {
    guard !byteRates.isEmpty else { return nil }
    return byteRates[block(at: second)]
  }

  /// The index of the block holding `second` (the first block for a second before it); blocks not empty.
  private func block(at second: Int) -> Int {
    var low = 0
    var high = blocks.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if blocks[middle].start <= second { low = middle } else { high = middle }
    }
    return low
  }

  /// The busiest second of bytes fetched, from the sample's bytes in each of this estimate's blocks
  /// (`blockTotals`) and the dispersion of its bytes per second: the same model with the bytes' own
  /// dispersion, and the requests' relative sampling error; and the fleet's bytes per second in each block.
  func peakBytes(blockTotals totals: [UInt64], dispersion bytesDispersion: Double)
    -> (value: Double, interval: SampledInterval, rates: [Double])
  {
    precondition(totals.count == blocks.count, "bytes for every block")
    let byteBlocks = zip(blocks, totals).map { RateBlock(start: $0.start, seconds: $0.seconds, total: $1) }
    let model = PerSecondLoadModel(
      pieces: byteBlocks.map { PerSecondLoadModel.Piece(rate: $0.rate * scale, seconds: $0.seconds) },
      dispersion: bytesDispersion)
    let (peak, weights) = model.medianBusiestSecond()
    var variance = 0.0
    for (weight, index) in zip(weights, model.order) where blocks[index].total > 0 {
      // The bytes rate is off by as much, relatively, as the requests' rate.
      let relative = (dispersion / Double(blocks[index].total)).squareRoot()
      let error = relative * Double(byteBlocks[index].total) * scale / Double(blocks[index].seconds)
      variance += weight * weight * error * error
    }
    return (
      peak, SampledLoadEstimate.busiestSecondInterval(peak, model, samplingVariance: variance),
      byteBlocks.map { $0.rate * scale }
    )
  }

  /// The 97.5% quantile of the standard normal distribution.
  static let z = 1.959_963_984_540_054

  /// The interval of a median busiest second `peak` of `model`: the sampling half-width (from the variance
  /// the rates' errors give it) combined on each side with the whole fleet's own spread of its busiest
  /// second, which varies from run to run even at known rates (its 2.5% and 97.5% quantiles).
  static func busiestSecondInterval(_ peak: Double, _ model: PerSecondLoadModel, samplingVariance: Double)
    -> SampledInterval
  {
    let half = z * samplingVariance.squareRoot()
    let (low, high) = (model.busiestSecond(0.025), model.busiestSecond(0.975))
    return SampledInterval(
      low: Swift.max(0, peak - ((peak - low) * (peak - low) + half * half).squareRoot()),
      high: peak + ((high - peak) * (high - peak) + half * half).squareRoot(), samplingHalfWidth: half)
  }
}
