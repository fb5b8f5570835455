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
struct SampledLoadEstimate {
  /// Rate blocks of the fitted series, scaled to the fleet.
  let blocks: [RateBlock]
  let scale: Double
  let dispersion: Double
  let p99: Double
  let p99Interval: SampledInterval
  let peak: Double
  let peakInterval: SampledInterval
  /// The second the estimated busiest second falls in: in the busiest block, the sample's busiest second.
  let peakSecond: Int

  /// The estimate from `counts`, the sample's requests per second.
  init(_ counts: UnsafeBufferPointer<UInt32>, scale: Double) {
    self.scale = scale
    // Requests that come in clusters make noise look like structure to a Poisson fit: the fit weighs the
    // counts by the dispersion they show.
    let dispersion = DyadicRateFit.dispersion(counts)
    let blocks = DyadicRateFit.blocks(counts, dispersion: dispersion)
    self.blocks = blocks
    self.dispersion = dispersion
    let model = PerSecondLoadModel(
      pieces: blocks.map { PerSecondLoadModel.Piece(rate: $0.rate * scale, seconds: $0.seconds) },
      dispersion: dispersion)
    // How far each block's rate may be off: its sample count is about quasi-Poisson, variance D S.
    let rateErrors = model.order.map { index in
      blocks[index].seconds > 0
        ? scale * (dispersion * Double(blocks[index].total)).squareRoot() / Double(blocks[index].seconds) : 0
    }
    func samplingVariance(_ sensitivities: [Double]) -> Double {
      var variance = 0.0
      for (weight, error) in zip(sensitivities, rateErrors) { variance += weight * weight * error * error }
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
    var busiest = blocks.first
    for block in blocks where block.rate > busiest!.rate { busiest = block }
    var second = busiest?.start ?? 0
    if let busiest {
      for candidate in busiest.start..<(busiest.start + busiest.seconds) where counts[candidate] > counts[second] {
        second = candidate
      }
    }
    peakSecond = second
  }

  /// The fitted fleet rate in second `second` (requests per second).
  func rate(at second: Int) -> Double {
    var low = 0
    var high = blocks.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if blocks[middle].start <= second { low = middle } else { high = middle }
    }
    return blocks.isEmpty ? 0 : blocks[low].rate * scale
  }

  /// The busiest second of bytes fetched, from the sample's bytes per second `bytes` over this estimate's
  /// blocks: the same model with the bytes' own dispersion, and the requests' relative sampling error.
  func peakBytes(_ bytes: UnsafeBufferPointer<UInt64>) -> (value: Double, interval: SampledInterval) {
    var totals: [UInt64] = []
    totals.reserveCapacity(blocks.count)
    for block in blocks {
      var sum: UInt64 = 0
      for second in block.start..<(block.start + block.seconds) { sum &+= bytes[second] }
      totals.append(sum)
    }
    let byteBlocks = zip(blocks, totals).map { RateBlock(start: $0.start, seconds: $0.seconds, total: $1) }
    let model = PerSecondLoadModel(
      pieces: byteBlocks.map { PerSecondLoadModel.Piece(rate: $0.rate * scale, seconds: $0.seconds) },
      dispersion: DyadicRateFit.dispersion(bytes))
    let (peak, weights) = model.medianBusiestSecond()
    var variance = 0.0
    for (weight, index) in zip(weights, model.order) where blocks[index].total > 0 {
      // The bytes rate is off by as much, relatively, as the requests' rate.
      let relative = (dispersion / Double(blocks[index].total)).squareRoot()
      let error = relative * Double(byteBlocks[index].total) * scale / Double(blocks[index].seconds)
      variance += weight * weight * error * error
    }
    return (peak, SampledLoadEstimate.busiestSecondInterval(peak, model, samplingVariance: variance))
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
