import SimulationEngine
import Statistics

/// How wide the estimate's intervals are: what the sample's size leaves open, and what the whole fleet's own
/// chance does.
extension SampledLoadEstimate {
  /// How many of the shared `stretches` (with the sample's requests in each, `totals`) may be the busiest: those
  /// whose rate two standard errors up reaches the busiest one's two down (at least one).
  static func rivals(_ stretches: [Range<Int>], _ totals: [UInt64], _ dispersion: Double) -> Int {
    let bounds = zip(stretches, totals).map { stretch, total in
      let error = 2 * (Swift.max(1, dispersion) * Double(total)).squareRoot()
      return (
        low: (Double(total) - error) / Double(stretch.count), high: (Double(total) + error) / Double(stretch.count)
      )
    }
    let floor = bounds.map(\.low).max() ?? 0
    return Swift.max(1, bounds.count { $0.high >= floor })
  }

  /// The whole numbers either side of `p99` that the p99 may be: a quantile of counts moves a whole request
  /// at a time, so the interval is read on the share of seconds at or below it, which is off by the
  /// sampling error the delta method gives the p99 (`halfWidth`) times the share of seconds at it, and by
  /// the whole fleet's own draw of its seconds (`p (1 - p) / T`). Where that share is within reach of 99%,
  /// the p99 may be the next whole number (the next of the model's ``PerSecondLoadModel/unit``s, where it
  /// counts in units).
  static func p99Steps(_ model: PerSecondLoadModel, p99: Double, halfWidth: Double) -> (low: Double, high: Double) {
    let step = model.unit
    let below = model.shareAtMost(p99 - step)
    let atMost = model.shareAtMost(p99)
    let seconds = Double(model.secondCount)
    let share = (atMost - below) / step * halfWidth / z
    let spread = share * share + 0.99 * 0.01 / seconds
    let reach = z * spread.squareRoot()
    return (below >= 0.99 - reach ? p99 - step : p99, atMost < 0.99 + reach ? p99 + step : p99)
  }

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

  /// Fewest of the sample's requests in its busiest second for the fit's busiest second to stand: a count's
  /// own 95% error is then within a quarter of it (`1.96 sqrt(n) / n <= 0.25`, so `n >= 61.5`).
  package static let fewestPeakRequests = 62.0

  /// The busiest second from the `finer` fit and its interval when the sample's busiest second holds fewer
  /// than ``fewestPeakRequests`` requests (else nil). A response that decays over a minute, such as a fleet
  /// event's fetches, is then neither a shared moment (the seconds around it are the response too) nor cut by
  /// the fit proper, whose `log T` per block needs tens of requests a split: its busiest block averages the
  /// response's first tens of seconds and is low. The finer fit's 4-second blocks follow the decay. Its
  /// interval also carries the counting error of the busiest second's `n` requests (`1.96 / sqrt(n)` of the
  /// estimate either way), which the blocks' errors leave out where the response is a few seconds of them.
  static func sparseBusiestSecond(_ counts: UnsafeBufferPointer<UInt32>, finer: Layout) -> (
    peak: Double, interval: SampledInterval
  )? {
    let most = Double(counts.max() ?? 0)
    guard most > 0, most < fewestPeakRequests else { return nil }
    let (peak, weights) = finer.model.medianBusiestSecond()
    let interval = busiestSecondInterval(peak, finer.model, samplingVariance: finer.samplingVariance(weights))
    let counting = z / most.squareRoot() * peak
    return (
      peak,
      SampledInterval(
        low: Swift.max(0, Swift.min(interval.low, peak - counting)), high: Swift.max(interval.high, peak + counting),
        samplingHalfWidth: Swift.max(interval.samplingHalfWidth, counting))
    )
  }

  /// Sub-pieces per fitted piece in ``smoothed(_:owners:)``.
  static let smoothSteps = 8

  /// `pieces` (in time order) with each fitted rate's piece cut in ``smoothSteps`` and its rate drawn along
  /// the straight lines between the pieces' middles: a rate that rises and falls with the day, as a fleet's
  /// does, rather than in steps. A step that averages a rise and its fall has a lighter tail over its seconds
  /// than the rate it averages (the tail is convex in the rate), which a block hours long in a small sample
  /// hides. A piece with a certain count or a shared stretch's rate (`owners`' walk) stays as it is.
  static func smoothed(_ pieces: [PerSecondLoadModel.Piece], owners: [(block: Int?, walk: Int?, weight: Double)])
    -> [PerSecondLoadModel.Piece]
  {
    var middles: [Double] = []
    var start = 0.0
    for piece in pieces {
      middles.append(start + Double(piece.seconds) / 2)
      start += Double(piece.seconds)
    }
    var smoothed: [PerSecondLoadModel.Piece] = []
    smoothed.reserveCapacity(pieces.count * smoothSteps)
    start = 0
    for (index, piece) in pieces.enumerated() {
      defer { start += Double(piece.seconds) }
      guard owners[index].walk == nil, piece.shift == 0, piece.seconds >= smoothSteps else {
        smoothed.append(piece)
        continue
      }
      let base = piece.seconds / smoothSteps
      for step in 0..<smoothSteps {
        let seconds = step < smoothSteps - 1 ? base : piece.seconds - base * (smoothSteps - 1)
        let time = start + Double(step * base) + Double(seconds) / 2
        // The neighbour on this side of the middle, if the rate there is a fitted one.
        let other = time < middles[index] ? index - 1 : index + 1
        var rate = piece.rate
        if pieces.indices.contains(other), owners[other].walk == nil, pieces[other].shift == 0 {
          let share = (time - middles[index]) / (middles[other] - middles[index])
          rate = piece.rate + share * (pieces[other].rate - piece.rate)
        }
        smoothed.append(.init(rate: Swift.max(0, rate), seconds: seconds))
      }
    }
    return smoothed
  }
}
