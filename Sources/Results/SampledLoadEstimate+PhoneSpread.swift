import Statistics

/// What a sample's phones recorded of their own requests (``PhoneHours``), for one direction: how many they
/// are and, per UTC hour and per UTC day, the sum of squares of each one's requests in it.
package struct PhoneSquares: Sendable {
  let phones: Int
  let hours: [UInt64]
  let days: [UInt64]

  package init(phones: Int, hours: [UInt64], days: [UInt64]) {
    self.phones = phones
    self.hours = hours
    self.days = days
  }
}

/// How far a sample's rates are off because its phones are not the fleet's other phones: per UTC hour, the
/// variance of the sample's count that its phones' uneven shares add beyond the dispersion's; and the
/// relative variance of the sample's level that every hour shares (phones that are busier than others all day).
struct PhoneSpread: Sendable {
  /// Per hour, `sum n^2 - (sum n)^2 / N - D sum n` (at least 0).
  let hours: [Double]
  /// The days' spread beyond their hours' added (`2 sum cov`: a phone busier in one hour is busier in the
  /// others), over the squared total: the relative variance of every rate of the sample at once.
  let level: Double

  static let none = PhoneSpread(hours: [], level: 0)

  private init(hours: [Double], level: Double) {
    self.hours = hours
    self.level = level
  }

  /// The spread of `counts` (the sample's requests per second over the run's days) from `squares`, at the
  /// series' `dispersion`. Requests that come together over minutes (an order's updates) leave the
  /// dispersion of successive seconds near 1, yet a sample of other phones would have held other orders.
  init(_ counts: UnsafeBufferPointer<UInt32>, squares: PhoneSquares, dispersion: Double) {
    let phones = Double(squares.phones)
    guard phones > 0, squares.hours.count * 3_600 == counts.count, squares.days.count * 24 == squares.hours.count
    else {
      self = .none
      return
    }
    var hours = Array(repeating: 0.0, count: squares.hours.count)
    var (shared, all) = (0.0, 0.0)
    for day in squares.days.indices {
      var (dayTotal, hourVariances) = (0.0, 0.0)
      for hour in (day * 24)..<((day + 1) * 24) {
        var total = 0.0
        for second in (hour * 3_600)..<((hour + 1) * 3_600) { total += Double(counts[second]) }
        let variance = Double(squares.hours[hour]) - total * total / phones
        hours[hour] = Swift.max(0, variance - dispersion * total)
        hourVariances += variance
        dayTotal += total
      }
      shared += Double(squares.days[day]) - dayTotal * dayTotal / phones - hourVariances
      all += dayTotal
    }
    self.hours = hours
    level = all > 0 ? Swift.max(0, shared) / (all * all) : 0
  }
}

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
