import SimulationEngine
import Statistics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The sample's bytes fetched, laid over a ``SampledLoadEstimate``'s blocks.
struct SampledBytes {
  /// Per block, the bytes of its seconds but the shared ones.
  let blockTotals: [UInt64]
  /// Per shared stretch (``SampledLoadEstimate/sharedStretches``), its bytes.
  let shared: [UInt64]
  /// The dispersion of the bytes per second, the shared seconds left out.
  let dispersion: Double
  /// The largest bytes per request of any second, when the requests were given (else 0).
  let largestResponse: Double
  /// By how much each second (but shared ones) with more bytes than its block's mean and
  /// ``excessDeviations`` standard deviations went past that: the tail the sample's largest responses make.
  let excesses: [Double]
  /// The second and third cumulants of a second's bytes (but shared ones) per byte of its mean: about their
  /// blocks' means, per byte fetched. A second of the whole fleet adds `scale` independent such seconds, so
  /// its cumulants are these times its mean.
  var cumulants: (second: Double, third: Double) = (0, 0)
  /// The largest responses of seconds that held one request (when the requests were given).
  var singles = LargestResponses()

  /// How many standard deviations above its block's mean a second's bytes start to be an excess.
  static let excessDeviations = 3.0

  /// How far, relatively, a rate of bytes is off that a sample counted over `requests` requests (at their
  /// `dispersion`) and `bytes` bytes (at the bytes' own): the larger of the two counts' relative errors.
  static func relativeError(requests: UInt64, dispersion: Double, bytes: UInt64, _ bytesDispersion: Double) -> Double {
    guard requests > 0 else { return 0 }
    let ofRequests = (dispersion / Double(requests)).squareRoot()
    return Swift.max(ofRequests, (bytesDispersion / Double(Swift.max(1, bytes))).squareRoot())
  }
}

extension SampledLoadEstimate {
  /// The busiest second of bytes fetched: the same model as the requests' with the bytes' own dispersion,
  /// each block at its bytes per second but the shared seconds, and each shared stretch at a rate of its own,
  /// as its requests are; the sampling error of each is the requests' relative one. Also the fleet's bytes
  /// per second in each block and in each shared stretch.
  func peakBytes(_ bytes: SampledBytes)
    -> (value: Double, interval: SampledInterval, rates: [Double], sharedRates: [Double])
  {
    precondition(bytes.blockTotals.count == blocks.count, "bytes for every block")
    precondition(bytes.shared.count == sharedStretches.count, "bytes for every shared stretch")
    var layout = BytePieces()
    // Per shared stretch, its owner (a stretch may cross from one block into the next: one rate, one error).
    var sharedOwners: [Int] = []
    var next = 0
    for (block, total) in zip(blocks, bytes.blockTotals) {
      let end = block.start + block.seconds
      let inside = sharedStretches.overlapping(block.start..<end, from: next)
      let parts = sharedStretches[inside].map { $0.clamped(to: block.start..<end) }
      let observed = block.seconds - parts.reduce(0) { $0 + $1.count }
      let rate = scale * (observed > 0 ? Double(total) / Double(observed) : 0)
      // The bytes rate is off by as much, relatively, as the requests' rate, or as the bytes' own count
      // (quasi-Poisson in bytes: responses of different sizes add to the requests' spread), whichever is more.
      let blockOwner = layout.owner(
        error: SampledBytes.relativeError(
          requests: block.total, dispersion: blockDispersion(block), bytes: total, bytes.dispersion)
          * rate)
      layout.rates.append(rate)
      var second = block.start
      for (shared, part) in zip(inside, parts) {
        layout.add(rate: rate, seconds: part.lowerBound - second, owner: blockOwner)
        if shared == layout.sharedRates.count {
          // A rate of its own, as the requests' stretch is: each second of the fleet draws its bytes at it.
          let stretch = sharedStretches[shared]
          let sharedRate = scale * Double(bytes.shared[shared]) / Double(stretch.count)
          layout.sharedRates.append(sharedRate)
          let error = SampledBytes.relativeError(
            requests: Swift.max(1, sharedTotals[shared]), dispersion: dispersion, bytes: bytes.shared[shared],
            bytes.dispersion)
          sharedOwners.append(layout.owner(error: error * sharedRate))
        }
        layout.add(rate: layout.sharedRates[shared], seconds: part.count, owner: sharedOwners[shared])
        second = part.upperBound
      }
      layout.add(rate: rate, seconds: end - second, owner: blockOwner)
      // A stretch that runs on past this block is met again by the next.
      next = inside.lowerBound
    }
    let model = PerSecondLoadModel(pieces: layout.pieces, dispersion: bytes.dispersion)
    precondition(model.secondCount == blocks.reduce(0) { $0 + $1.seconds }, "every second once")
    let (peak, weights) = model.medianBusiestSecond()
    let interval = widened(
      SampledLoadEstimate.busiestSecondInterval(
        peak, model,
        samplingVariance: layout.variance(weights, model.order)
          + SampledLoadEstimate.levelVariance(
            phoneSpread.level, weights: weights, pieces: layout.pieces, order: model.order)),
      peak: peak, bytes, rates: layout.rates)
    return (peak, interval, layout.rates, layout.sharedRates)
  }

  /// The bytes' `interval` about their busiest second `peak`, reaching as far as the largest responses
  /// (``largestResponseReach(_:busiestRate:)``) and the skew of a second's bytes (``skewedReach(_:rates:)``)
  /// may take the whole fleet's, and as far as the requests' bracket of how the shared seconds are cut
  /// (``peakBracket``), carried over at the same bytes per request.
  private func widened(_ interval: SampledInterval, peak: Double, _ bytes: SampledBytes, rates: [Double])
    -> SampledInterval
  {
    let reaches = [
      largestResponseReach(bytes, busiestRate: rates.max() ?? 0), skewedReach(bytes, rates: rates),
      largestSingleReach(bytes, busiestRate: rates.max() ?? 0),
    ]
    var (low, high) = (interval.low, reaches.reduce(interval.high) { Swift.max($0, $1 ?? 0) })
    if self.peak > 0 {
      low = Swift.min(low, peak * peakBracket.low / self.peak)
      high = Swift.max(high, peak * peakBracket.high / self.peak)
    }
    return SampledInterval(low: low, high: high, samplingHalfWidth: interval.samplingHalfWidth)
  }

  /// How many bytes the whole fleet's busiest second may reach with the skew its responses' sizes give a
  /// second (``SampledBytes/cumulants``, a ``ShiftedGamma``), as if every second ran at the busiest block's
  /// bytes per second (`rates`, the fleet's, per block), at the upper end of its own 95% interval: the 97.5% quantile of
  /// the busiest of that many seconds.
  /// The two moments the busiest second's model keeps leave out the skew that a few large responses in a
  /// second add; this keeps it (nil when the seconds show none).
  private func skewedReach(_ bytes: SampledBytes, rates: [Double]) -> Double? {
    let (second, third) = bytes.cumulants
    // The busiest block's rate at the upper end of its own 95% interval: a sample's busiest block may be read low.
    guard let busiest = rates.indices.max(by: { rates[$0] < rates[$1] }) else { return nil }
    let error = SampledBytes.relativeError(
      requests: blocks[busiest].total, dispersion: blockDispersion(blocks[busiest]), bytes: bytes.blockTotals[busiest],
      bytes.dispersion)
    let busiestRate = rates[busiest] * (1 + SampledLoadEstimate.z * error)
    guard
      let law = ShiftedGamma(mean: busiestRate, variance: second * busiestRate, thirdCumulant: third * busiestRate)
    else { return nil }
    let seconds = Double(blocks.reduce(0) { $0 + $1.seconds })
    return law.quantile(exceedance: -log(0.975) / seconds)
  }

  /// How many bytes the whole fleet's busiest second may reach through its largest responses, which a sample
  /// draws `scale` times fewer of (nil when the sample shows too few large seconds to tell): the busiest
  /// block's bytes per second (`busiestRate`, the fleet's) and, on top, the largest excess that `scale`
  /// times the sample's seconds would show, from a generalized Pareto tail fitted to the sample's excesses
  /// (``SampledBytes/excesses``), extrapolated to the 97.5% quantile of their maximum: the interval's upper
  /// end, as ``skewedReach(_:rates:)`` is.
  private func largestResponseReach(_ bytes: SampledBytes, busiestRate: Double) -> Double? {
    guard let tail = GeneralizedPareto(excesses: bytes.excesses) else { return nil }
    let seconds = Double(blocks.reduce(0) { $0 + $1.seconds })
    guard
      let excess = SampledLoadEstimate.largestExcess(
        tail, share: Double(bytes.excesses.count) / seconds, draws: scale * seconds)
    else { return nil }
    let spread = sampleSecondSpread(bytes, busiestRate: busiestRate)
    // The busiest bulk, one sample's worth of phones at its excess threshold plus the largest excess, and two
    // standard deviations of the whole fleet's second beside it (its busiest seconds are its fullest).
    return busiestRate + SampledBytes.excessDeviations * spread + excess + 2 * spread * scale.squareRoot()
  }

  /// The 97.5% quantile of the largest excess of `draws` draws, of which a `share` go past the threshold of
  /// `tail`: exceeded by one draw with probability `-ln 0.975 / draws`. Nil when that is not beyond the
  /// threshold's share (the tail does not reach so few).
  private static func largestExcess(_ tail: GeneralizedPareto, share: Double, draws: Double) -> Double? {
    let target = -log(0.975) / Swift.max(1, draws)
    guard target < share else { return nil }
    return tail.quantile(exceedance: target / share)
  }

  /// The standard deviation of a sample's second of bytes at the busiest block's rate (`busiestRate`, the
  /// fleet's) and the bytes' dispersion.
  private func sampleSecondSpread(_ bytes: SampledBytes, busiestRate: Double) -> Double {
    (bytes.dispersion * Swift.max(busiestRate / scale, 1)).squareRoot()
  }

  /// How many bytes the whole fleet's busiest second may reach through the largest single response it draws:
  /// a generalized Pareto tail fitted to the sample's largest single responses (``LargestResponses``) over
  /// the smallest of them, extrapolated to the 97.5% quantile of the largest of the fleet's responses (`scale`
  /// times the sample's), on top of the busiest block's bytes per second (`busiestRate`, the fleet's) and two
  /// standard deviations of the fleet's second. Nil with too few single responses to fit. Where the seconds'
  /// own excesses (``largestResponseReach(_:busiestRate:)``) mix a second's count with its sizes, these are
  /// sizes alone.
  private func largestSingleReach(_ bytes: SampledBytes, busiestRate: Double) -> Double? {
    let largest = bytes.singles.largest
    guard largest.count == LargestResponses.capacity, let threshold = largest.last,
      let tail = GeneralizedPareto(excesses: largest.dropLast().map { $0 - threshold })
    else { return nil }
    let requests = Double(blocks.reduce(UInt64(0)) { $0 + $1.total }) * scale
    // The share of responses above the threshold, as the single seconds show it.
    guard
      let excess = SampledLoadEstimate.largestExcess(
        tail, share: Double(largest.count - 1) / Double(bytes.singles.count), draws: requests)
    else { return nil }
    let spread = sampleSecondSpread(bytes, busiestRate: busiestRate)
    return busiestRate + (threshold + excess) + 2 * spread * scale.squareRoot()
  }
}

/// The pieces of the bytes' model as ``SampledLoadEstimate/peakBytes(_:)`` lays them: each with its owner
/// (a block, or a shared stretch), whose sampling error its pieces share.
private struct BytePieces {
  var pieces: [PerSecondLoadModel.Piece] = []
  var owners: [Int] = []
  var errors: [Double] = []
  /// The fleet's bytes per second in each block, and in each shared stretch.
  var rates: [Double] = []
  var sharedRates: [Double] = []

  /// A new owner with its sampling error.
  mutating func owner(error: Double) -> Int {
    errors.append(error)
    return errors.count - 1
  }

  /// A piece of `seconds` (none when not positive) at `rate`.
  mutating func add(rate: Double, seconds: Int, owner: Int) {
    guard seconds > 0 else { return }
    pieces.append(.init(rate: rate, seconds: seconds))
    owners.append(owner)
  }

  /// The sampling variance of a figure that moves with the pieces as `weights` say, in `order`.
  func variance(_ weights: [Double], _ order: [Int]) -> Double {
    var byOwner = Array(repeating: 0.0, count: errors.count)
    for (weight, index) in zip(weights, order) { byOwner[owners[index]] += weight }
    return zip(byOwner, errors).reduce(0) { $0 + $1.0 * $1.0 * $1.1 * $1.1 }
  }
}

extension [Range<Int>] {
  /// The indices of these ranges (ascending, apart) that overlap `block`, searched from index `first` on:
  /// ranges that end before it are passed over, and one that runs on past its end is among them (so the
  /// next block, searched from this one's first, meets it again).
  func overlapping(_ block: Range<Int>, from first: Int) -> Range<Int> {
    var low = first
    while low < count && self[low].upperBound <= block.lowerBound { low += 1 }
    var high = low
    while high < count && self[high].lowerBound < block.upperBound { high += 1 }
    return low..<high
  }
}
