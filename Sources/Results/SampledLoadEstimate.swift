import SimulationEngine
import Statistics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

  static let zero = SampledInterval(low: 0, high: 0, samplingHalfWidth: 0)
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
  /// The size of the clumps the requests come in (``clumpSize(_:blocks:skipped:dispersion:)``), or nil.
  let clump: Int?
  /// How far the sample's rates are off because its phones are not the fleet's others (``PhoneSpread``).
  let phoneSpread: PhoneSpread
  /// Stretches whose count is taken whole rather than fitted, ascending: a fan-out's walk
  /// (``FanOutWindows``: counted over the stretch, at an even pace, not drawn) and each second the phones
  /// shared (``SharedSeconds``: the share of phones acting then, scaled).
  let walks: [FanOutStretch]
  /// Per stretch of ``walks``, the fleet's requests over it beyond the rate around it, and the fleet's rate
  /// over a shared one.
  let walkTotals: [Double]
  let sharedRates: [Double?]
  /// The seconds the phones shared as stretches of equal rate (``SharedSeconds/stretches(_:counts:dispersion:)``;
  /// each also a stretch of ``walks``), ascending, and the sample's requests in each.
  let sharedStretches: [Range<Int>]
  let sharedTotals: [UInt64]
  let p99: Double
  let p99Interval: SampledInterval
  let peak: Double
  let peakInterval: SampledInterval
  /// The busiest second with the shared seconds cut into stretches otherwise (each second alone; at the
  /// series' own penalty): the least and the most of them and ``peak``.
  let peakBracket: (low: Double, high: Double)
  /// The second the estimated busiest second falls in: in the busiest block (or fan-out), the sample's
  /// busiest second.
  let peakSecond: Int

  /// Whether the p99, the busiest second and their intervals were estimated (else only the fitted rates:
  /// zero figures).
  let hasFigures: Bool

  /// The estimate from `counts`, the sample's requests per second, with `walks` the stretches of seconds
  /// in which the servers walk the fleet at a set pace (left out of the fit; taken whole), and `named`
  /// the seconds the scenario names as ones its phones share (a lower bar for a shared second there).
  /// With `fetches` (what the servers receive), a named moment's response that the sample holds a handful of
  /// requests a second of is read with the finer fit (``sparseBusiestSecond(_:finer:)``).
  /// With `phones` (what the sample's phones recorded of their requests: ``PhoneSpread/Squares``), the rates are
  /// off by as much as its phones' counts vary (``PhoneSpread``).
  /// Without `figures`, only the fitted rates (``rate(at:)``): what a stream's estimate is for, whose p99
  /// and busiest second are not estimable from a sample (docs/capacity.md).
  package init(
    _ counts: UnsafeBufferPointer<UInt32>, scale: Double, walks fanOuts: [FanOutStretch] = [],
    figures: Bool = true, fetches: Bool = false, phones: PhoneSpread.Squares? = nil,
    named: (Int) -> Bool = { _ in false }
  ) {
    hasFigures = figures
    self.scale = scale
    var skipped = Array(repeating: false, count: counts.count)
    for walk in fanOuts { for second in walk.seconds { skipped[second] = true } }
    // Moments the phones shared are counted as they are; the rest is fitted, weighed by the dispersion the
    // counts show without those moments (which would inflate it and so smooth every moment away).
    let (shared, dispersion) = skipped.withUnsafeBufferPointer {
      SharedSeconds.find(counts, skipped: fanOuts.isEmpty ? nil : $0, named: named)
    }
    for second in shared { skipped[second] = true }
    let marks = shared.isEmpty && fanOuts.isEmpty ? nil : skipped
    // The fit proper, and a finer one that bounds the p99's interval (below), from one pass of sums.
    let fits = (marks ?? []).withUnsafeBufferPointer { skipped in
      DyadicRateFit.partitions(
        counts, dispersion: dispersion, skipped: marks == nil ? nil : skipped,
        penaltiesPerBlock: figures ? [nil, SampledLoadEstimate.finerPenalty] : [nil],
        shortestLevels: figures ? [0, SampledLoadEstimate.finerLevel] : [0])
    }
    let blocks = fits[0]
    self.blocks = blocks
    self.dispersion = dispersion
    let sharedStretches = SharedSeconds.stretches(shared, counts: counts, dispersion: dispersion)
    self.sharedStretches = sharedStretches
    sharedTotals = sharedStretches.map { $0.reduce(UInt64(0)) { $0 + UInt64(counts[$1]) } }
    let stretches = SampledLoadEstimate.merging(fanOuts, sharedStretches)
    walks = stretches.map(\.stretch)
    let phoneSpread = phones.map { PhoneSpread(counts, squares: $0, dispersion: dispersion) } ?? .none
    self.phoneSpread = phoneSpread
    // Clumps shape the figures' tails; the rates alone do not need them.
    let clump =
      figures ? SampledLoadEstimate.clumpSize(counts, blocks: blocks, skipped: marks, dispersion: dispersion) : nil
    self.clump = clump
    let layout = Layout(
      counts, blocks: blocks, stretches: stretches, scale: scale, dispersion: dispersion, clump: clump,
      phoneSpread: phoneSpread)
    walkTotals = layout.walkTotals
    sharedRates = layout.sharedRates
    guard figures else {
      (p99, peak, peakSecond, peakBracket) = (0, 0, 0, (0, 0))
      (p99Interval, peakInterval) = (SampledInterval.zero, SampledInterval.zero)
      return
    }
    let model = layout.model
    let (p99, p99Weights) = model.quantile(0.99)
    let p99Half = SampledLoadEstimate.z * layout.samplingVariance(p99Weights).squareRoot()
    self.p99 = p99
    // The fit's penalty keeps out of the rate what the sample's counts cannot tell from noise, and so part
    // of how the fleet's rate really varies: its p99, a quantile over many seconds, lies between that fit's
    // and a finer one's, which reads some noise as variation. The interval reaches the finer fit's p99.
    let finer = fits[1]
    let finerLayout = Layout(
      counts, blocks: finer, stretches: stretches, scale: scale, dispersion: dispersion, clump: clump,
      phoneSpread: phoneSpread)
    let finerP99 = finerLayout.model.quantile(0.99, near: p99).value
    // Requests that come in clusters of about `D` (a push pair, a phone's widgets together) put the fleet's
    // counts that far apart: a quantile of them is known to within half a cluster at best.
    let lattice = (dispersion - 1) / 2
    let steps = SampledLoadEstimate.p99Steps(model, p99: p99, halfWidth: p99Half)
    // And the p99 of the fleet whose rate moves within the blocks as much as the sample's counts show.
    let unresolved = SampledLoadEstimate.unresolvedDispersion(
      counts, blocks: blocks, skipped: marks, dispersion: dispersion, scale: scale)
    let movingP99 =
      unresolved > 0
      ? PerSecondLoadModel(pieces: layout.pieces, dispersion: dispersion + unresolved).quantile(0.99, near: p99).value
      : p99
    // And the p99 of a rate that moves smoothly from block to block rather than in steps.
    let smoothP99 = PerSecondLoadModel(
      pieces: SampledLoadEstimate.smoothed(layout.pieces, owners: layout.owners), dispersion: dispersion, clump: clump
    ).quantile(0.99, near: p99).value
    p99Interval = SampledInterval(
      low: Swift.max(0, Swift.min(p99 - p99Half, finerP99, steps.low, smoothP99) - lattice),
      high: Swift.max(p99 + p99Half, finerP99, steps.high, movingP99, smoothP99) + lattice,
      samplingHalfWidth: p99Half)
    let (fittedPeak, peakWeights) = model.medianBusiestSecond()
    var peak = fittedPeak
    // A run of shared seconds is cut into stretches by how far its counts differ; the response's true shape
    // within a stretch is more than a sample shows. The interval reaches the busiest second with every
    // shared second a stretch alone (each read as its sample says, the noisiest at its highest) and with the
    // runs cut at the series' own penalty (smoother): the truth lies between them far more often than not.
    var interval = SampledLoadEstimate.busiestSecondInterval(
      peak, model, samplingVariance: layout.samplingVariance(peakWeights))
    // And the busiest second of that fleet whose rate moves within the blocks: a small sample's blocks are
    // hours long, and average the top of a rate that rises and falls within them away.
    if unresolved > 0 {
      let moving = PerSecondLoadModel(pieces: layout.pieces, dispersion: dispersion + unresolved)
      interval = SampledInterval(
        low: interval.low, high: Swift.max(interval.high, moving.busiestSecond(0.5, near: peak)),
        samplingHalfWidth: interval.samplingHalfWidth)
    }
    var bracket = (low: peak, high: peak)
    if !shared.isEmpty {
      // And the busiest of many shared stretches is the one its sample overstated most: with each lowered by
      // the standard errors the largest of that many normal errors comes to, the least it may be.
      let lowering = (2 * log(Double(SampledLoadEstimate.rivals(sharedStretches, sharedTotals, dispersion))))
        .squareRoot()
      for (penalty, lowered) in [
        (0, 0), (Swift.max(1, log(Double(counts.count))), 0), (SharedSeconds.runPenalty, lowering),
      ] {
        let cut = SharedSeconds.stretches(shared, counts: counts, dispersion: dispersion, penalty: penalty)
        let other = Layout(
          counts, blocks: blocks, stretches: SampledLoadEstimate.merging(fanOuts, cut), scale: scale,
          dispersion: dispersion, clump: clump, phoneSpread: phoneSpread, lowering: lowered
        ).model.medianBusiestSecond().value
        bracket = (Swift.min(bracket.low, other), Swift.max(bracket.high, other))
        interval = SampledInterval(
          low: Swift.min(interval.low, other), high: Swift.max(interval.high, other),
          samplingHalfWidth: interval.samplingHalfWidth)
      }
    }
    let peakSecond = SampledLoadEstimate.busiestSecond(counts, blocks: blocks, pieces: layout.pieces, model: model)
    self.peakSecond = peakSecond
    // A moment the scenario names whose response the sample holds only a handful of requests a second of (a
    // story's fetches, decaying over a minute) is one long block of the fit, below its first seconds: the
    // finer fit follows the decay, and the interval carries the counting error of so few requests.
    if fetches, named(peakSecond), let sparse = SampledLoadEstimate.sparseBusiestSecond(counts, finer: finerLayout) {
      peak = sparse.peak
      interval = SampledInterval(
        low: Swift.min(interval.low, sparse.interval.low), high: Swift.max(interval.high, sparse.interval.high),
        samplingHalfWidth: Swift.max(interval.samplingHalfWidth, sparse.interval.samplingHalfWidth))
      bracket = (Swift.min(bracket.low, peak), Swift.max(bracket.high, peak))
    }
    self.peak = peak
    peakInterval = interval
    peakBracket = bracket
  }

  /// The penalty per block of the finer fit that bounds the p99's interval: the log-likelihood a block
  /// must add, where the fit proper asks for `log T` (``DyadicRateFit``); 2 is about what a split of
  /// noise alone gains at the 95th percentile (half a chi-square with one degree of freedom).
  static let finerPenalty = 2.0
  /// The finer fit's shortest block, as a power of two: 4 s. Blocks of a second at that penalty read mostly
  /// noise; a fleet acting in step varies its rate within a minute, which blocks of a minute would miss.
  static let finerLevel = 2

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

  /// The index of the stretch of ``walks`` holding `second`, if one does.
  private func walk(at second: Int) -> Int? {
    SampledLoadEstimate.index(of: second, in: walks.count) { walks[$0].seconds }
  }

  /// The fitted fleet rate in second `second` (requests per second), with a fan-out's own requests.
  func rate(at second: Int) -> Double {
    var rate = blocks.isEmpty ? 0 : blocks[block(at: second)].rate * scale
    if let walk = walk(at: second) {
      if let shared = sharedRates[walk] { return shared }
      rate += walkTotals[walk] * walks[walk].weights[second - walks[walk].seconds.lowerBound]
    }
    return rate
  }

  /// The fleet's fitted bytes per second in each block and in each shared stretch, once
  /// ``peakBytes(_:)`` set them (what the servers receive: the fetches' bytes).
  var byteRates: [Double] = []
  var sharedByteRates: [Double] = []

  /// The fitted fleet bytes fetched in second `second` (nil without ``byteRates``).
  func bytesRate(at second: Int) -> Double? {
    guard !byteRates.isEmpty else { return nil }
    if let shared = SampledLoadEstimate.index(of: second, in: sharedStretches.count, { sharedStretches[$0] }),
      shared < sharedByteRates.count
    {
      return sharedByteRates[shared]
    }
    return byteRates[block(at: second)]
  }

  /// The 97.5% quantile of the standard normal distribution.
  static let z = 1.959_963_984_540_054
}
