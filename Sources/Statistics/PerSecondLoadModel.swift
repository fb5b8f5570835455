import CGSL
import SimulationEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a large fleet's requests per second are, second by second, when its phones act independently at a
/// known rate: in a second of rate `r`, a count of mean `r` and variance `D r`: Poisson for `D = 1`, and
/// above it negative binomial (size `r / (D - 1)`, success probability `1 / D`), an overdispersed count on
/// the integers as requests are. A superposition of many independent, individually sparse request streams
/// is Poisson in the limit (the Palm-Khintchine theorem; Cinlar, "Superposition of point processes",
/// 1972); `D` above 1 is what a phone's requests that come together in one second add.
/// Seconds are independent given their rates, so the fleet's busiest second over the run has the
/// distribution `P(max <= y) = prod_t P(Y_t <= y)`.
///
/// The rates come as pieces (a rate and how many seconds have it), in any order. A piece may also carry a
/// count each of its seconds holds for certain (`shift`: what the servers send on a fixed schedule, such as
/// a fan-out paced at a known rate), added to the drawn one: `Y = shift + N`.
///
/// Counts beyond what GSL's distribution functions take (their argument is 32-bit) are counted in units:
/// the smallest power of two that brings every likely value under ``largestCount``, with the dispersion
/// divided by it (the same mean and variance in the given unit; at least 1, so a unit above `D` widens the
/// count to Poisson in units, never narrows it). Only a count of bytes gets there: a figure is then read to
/// the unit, not to the byte.
public struct PerSecondLoadModel: Sendable {
  public struct Piece: Sendable, Equatable {
    public let rate: Double
    public let seconds: Int
    public let shift: Double

    public init(rate: Double, seconds: Int, shift: Double = 0) {
      self.rate = rate
      self.seconds = seconds
      self.shift = shift
    }
  }

  /// Busiest first (of equally busy ones, the first given first), in ``unit``s.
  public let pieces: [Piece]
  /// Where each of ``pieces`` was in the pieces given: sensitivities are in this order.
  public let order: [Int]
  /// The counts' dispersion in ``unit``s.
  public let dispersion: Double
  public let secondCount: Int
  /// What one count of the model is of the figures given and returned: 1 unless they are too large.
  public let unit: Double
  /// Likely values up to this many are counted one by one: GSL's distribution functions take a 32-bit count.
  public static let largestCount = Double(1 << 31)
  /// Whether some piece has a certain count: its values are then off the lattice `D n`, and a piece that is
  /// certain at a value does not make every quieter one certain.
  private let isShifted: Bool

  /// With requests that come in clumps (``ClumpedCount``), their size: each second's count is then singles and
  /// clumps of that size rather than a negative binomial. Nil for the negative binomial (and in units).
  public let clump: Int?

  /// The model of `pieces` at `dispersion`, with `clump` the size of the clumps its requests come in, if
  /// they do (``ClumpedCount/size(dispersion:skew:)``). Clumps are left out (the negative binomial kept)
  /// where the counts are counted in units, or a piece's clumps are too many for their sums
  /// (``ClumpedCount/largestClumpMean``), or the dispersion is above their size.
  public init(pieces given: [Piece], dispersion: Double, clump: Int? = nil) {
    GSL.configure()
    order = given.indices.sorted {
      (given[$0].shift + given[$0].rate, $1) > (given[$1].shift + given[$1].rate, $0)
    }
    let inUnits = Swift.max(1, dispersion)
    var top = 0.0
    for piece in given {
      top = Swift.max(top, piece.shift + piece.rate + PerSecondLoadModel.reach(piece.rate, inUnits, deviations: 20))
    }
    let unit =
      top > PerSecondLoadModel.largestCount ? exp2((log2(top / PerSecondLoadModel.largestCount)).rounded(.up)) : 1
    self.unit = unit
    pieces = order.map {
      unit == 1
        ? given[$0] : Piece(rate: given[$0].rate / unit, seconds: given[$0].seconds, shift: given[$0].shift / unit)
    }
    self.dispersion = Swift.max(1, dispersion / unit)
    secondCount = pieces.reduce(0) { $0 + $1.seconds }
    isShifted = pieces.contains { $0.shift != 0 }
    let busiestRate = given.reduce(0) { Swift.max($0, $1.rate) }
    if let clump, unit == 1, self.dispersion <= Double(clump),
      ClumpedCount(rate: busiestRate, dispersion: self.dispersion, size: clump).clumps <= ClumpedCount.largestClumpMean
    {
      self.clump = clump
    } else {
      self.clump = nil
    }
  }

  /// The largest `n` with `shift + n <= y` in a piece (negative: no value of the piece is that low).
  @inline(__always)
  private func lattice(_ y: Double, _ piece: Piece) -> Int {
    let steps = y - piece.shift
    return steps < 0 ? -1 : Int(Swift.min((steps + 1e-9).rounded(.down), 4e9))
  }

  /// The negative binomial's size for a piece, nil where the count is Poisson: `D = 1`, or a size so large
  /// that the two agree to double precision (and GSL's negative binomial would lose it).
  @inline(__always)
  private func size(_ piece: Piece) -> Double? {
    let size = piece.rate / (dispersion - 1)
    return dispersion > 1 && size < 1e9 ? size : nil
  }

  /// `P(N <= n)` alone (one distribution function, not two).
  @inline(__always)
  private func below(_ n: Int, _ piece: Piece) -> Double {
    guard n >= 0 else { return 0 }
    guard piece.rate > 0 else { return 1 }
    if let clump { return ClumpedCount(rate: piece.rate, dispersion: dispersion, size: clump).atMost(n) }
    let k = UInt32(clamping: n)
    guard let size = size(piece) else { return gsl_cdf_poisson_P(k, piece.rate) }
    return gsl_cdf_negative_binomial_P(k, 1 / dispersion, size)
  }

  /// `log P(N <= n)`, from whichever tail is accurate (`log1p(-P(N > n))` while that tail is under one
  /// half, so the lower tail is computed only when needed), and `P(N > n)`.
  @inline(__always)
  private func logBelow(_ n: Int, _ piece: Piece) -> (value: Double, above: Double) {
    guard n >= 0 else { return (-.infinity, 1) }
    guard piece.rate > 0 else { return (0, 0) }
    let k = UInt32(clamping: n)
    let above =
      clump.map { ClumpedCount(rate: piece.rate, dispersion: dispersion, size: $0).above(n) }
      ?? size(piece).map { gsl_cdf_negative_binomial_Q(k, 1 / dispersion, $0) } ?? gsl_cdf_poisson_Q(k, piece.rate)
    return (above < 0.5 ? log1p(-above) : log(below(n, piece)), above)
  }

  @inline(__always)
  private func pmf(_ n: Int, _ piece: Piece) -> Double {
    guard n >= 0 else { return 0 }
    guard piece.rate > 0 else { return n == 0 ? 1 : 0 }
    if let clump { return ClumpedCount(rate: piece.rate, dispersion: dispersion, size: clump).probability(n) }
    let k = UInt32(clamping: n)
    guard let size = size(piece) else { return gsl_ran_poisson_pdf(k, piece.rate) }
    return gsl_ran_negative_binomial_pdf(k, 1 / dispersion, size)
  }

  /// How far past its mean a piece's count may lie before it is certain to double precision: 15 standard
  /// deviations, and at least what the negative binomial's geometric tail (about `e^(-x / D)`) needs.
  @inline(__always)
  private func reach(_ piece: Piece, deviations: Double) -> Double {
    PerSecondLoadModel.reach(piece.rate, dispersion, deviations: deviations)
  }

  @inline(__always)
  private static func reach(_ rate: Double, _ dispersion: Double, deviations: Double) -> Double {
    deviations * (dispersion * (rate + dispersion)).squareRoot() + 3 * deviations * dispersion
  }

  /// Whether `N <= n` is certain to double precision for a piece (its mean far below), or impossible (far
  /// above): no distribution function needs computing.
  @inline(__always)
  private func isSettled(_ n: Int, _ piece: Piece) -> Bool? {
    if n < 0 { return false }
    let x = Double(n)
    let reach = reach(piece, deviations: 15)
    if piece.rate + reach < x { return true }
    if x + reach < piece.rate { return false }
    return nil
  }

  /// A value past every piece's likely values: where searches start from above.
  private var ceiling: Double {
    var top = 0.0
    for piece in pieces { top = Swift.max(top, piece.shift + piece.rate + reach(piece, deviations: 20)) }
    return top
  }

  /// The smallest value `y` at which `holds(y)` is true, given it is true at ``ceiling`` and monotone and
  /// changes only where some piece can take a value. Without certain counts those are the integers;
  /// with them, the search narrows the reals and returns the last value a piece takes at or below its top.
  private func smallest(_ holds: (Double) -> Bool) -> Double {
    var high = ceiling
    while !holds(high) && high < 1e15 { high = 2 * high + 1 }
    guard isShifted else { return PerSecondLoadModel.bisect(low: -1, top: Int(high.rounded(.up)), holds) }
    var low = -1.0
    while high - low > 1e-7 * Swift.max(1, high) {
      let middle = (low + high) / 2
      if holds(middle) { high = middle } else { low = middle }
    }
    // The distribution is constant from the last value any piece takes at or below `high` up to `high`.
    var value = 0.0
    for piece in pieces where lattice(high, piece) >= 0 {
      value = Swift.max(value, piece.shift + Double(lattice(high, piece)))
    }
    return value
  }

  /// ``smallest(_:)`` searched from `hint` outwards (the value is expected near it: a close model's), in
  /// steps that double, then halved: a few evaluations rather than a search from ``ceiling``. On the
  /// whole numbers only (without certain counts); elsewhere, or without a hint, the search from above.
  private func smallest(near hint: Double?, _ holds: (Double) -> Bool) -> Double {
    guard let hint, hint.isFinite, !isShifted else { return smallest(holds) }
    var top = Swift.max(0, Int(hint.rounded()))
    var low = top - 1
    var step = 1
    if holds(Double(top)) {
      while low >= 0 && holds(Double(low)) {
        top = low
        step *= 2
        low = top - step
      }
      low = Swift.max(low, -1)
    } else {
      low = top
      top = low + step
      while !holds(Double(top)) {
        guard Double(top) < 1e15 else { return smallest(holds) }
        low = top
        step *= 2
        top = low + step
      }
    }
    return PerSecondLoadModel.bisect(low: low, top: top, holds)
  }

  /// The smallest whole number in `low + 1 ... top` at which `holds` is true, given it is false at `low`
  /// (or `low` is -1) and true at `top`.
  private static func bisect(low: Int, top: Int, _ holds: (Double) -> Bool) -> Double {
    var (low, top) = (low, top)
    while top - low > 1 {
      let middle = (low + top) / 2
      if holds(Double(middle)) { top = middle } else { low = middle }
    }
    return Double(top)
  }

  // MARK: The distribution over seconds

  /// The share of the run's seconds (expected) with at most `y` requests.
  public func shareAtMost(_ y: Double) -> Double {
    secondCount > 0 ? secondsAtMost(y / unit) / Double(secondCount) : .nan
  }

  /// The seconds (expected) with at most `y` requests.
  private func secondsAtMost(_ y: Double) -> Double {
    var seconds = 0.0
    for piece in pieces {
      let n = lattice(y, piece)
      switch isSettled(n, piece) {
      case true?: seconds += Double(piece.seconds)
      case false?: continue
      case nil: seconds += Double(piece.seconds) * below(n, piece)
      }
    }
    return seconds
  }

  /// The `p` quantile of the requests in a second over the run (the fleet's p99 for `p = 0.99`), and how it
  /// moves with each piece's rate (`d quantile / d rate`, in piece order; they add up to 1 unless certain
  /// counts alone set it).
  /// With `hint` (in the figures' units), the search starts there: the quantile of a model close to this one.
  public func quantile(_ p: Double, near hint: Double? = nil) -> (value: Double, sensitivities: [Double]) {
    guard secondCount > 0 else { return (.nan, []) }
    let target = p * Double(secondCount)
    let y = smallest(near: hint.map { $0 / unit }) { secondsAtMost($0) >= target }
    // d quantile / d rate_b = L_b pmf_b(n) / sum L pmf(n): the weights of the seconds at the quantile.
    var weights = pieces.map { piece in
      let n = lattice(y, piece)
      return isSettled(n, piece) == nil && piece.shift + Double(n) == y
        ? Double(piece.seconds) * pmf(n, piece) : 0
    }
    let sum = weights.reduce(0, +)
    if sum > 0 { weights = weights.map { $0 / sum } }
    return (y * unit, weights)
  }

  // MARK: The busiest second

  /// `log P(max <= y)`.
  private func logAllAtMost(_ y: Double) -> Double {
    var sum = 0.0
    for piece in pieces {
      let n = lattice(y, piece)
      if let settled = isSettled(n, piece) {
        if settled {
          // Without certain counts, every piece after it is quieter.
          if isShifted { continue } else { break }
        }
        return -.infinity
      }
      let (logBelow, above) = logBelow(n, piece)
      sum += Double(piece.seconds) * logBelow
      if above < 1e-18 && !isShifted { break }
    }
    return sum
  }

  /// The `p` quantile of the busiest second of the run (its median for `p = 0.5`).
  /// With `hint` (in the figures' units), the search starts there.
  public func busiestSecond(_ p: Double, near hint: Double? = nil) -> Double {
    guard secondCount > 0 else { return .nan }
    let target = log(p)
    return unit * smallest(near: hint.map { $0 / unit }) { logAllAtMost($0) >= target }
  }

  /// The median busiest second and how it moves with each piece's rate (`d median / d rate`, in piece
  /// order): implicit differentiation of `sum L log F(y) = log 1/2`, with `d F / d rate = -pmf` (exact for
  /// a Poisson count, a shift of the mean for an overdispersed one) and the change in `y` one request
  /// makes. A piece's certain count moves it as much as its rate does.
  public func medianBusiestSecond() -> (value: Double, sensitivities: [Double]) {
    guard secondCount > 0 else { return (.nan, []) }
    let y = smallest { logAllAtMost($0) >= log(0.5) }
    let step = logAllAtMost(y) - logAllAtMost(y - 1)
    var weights = Array(repeating: 0.0, count: pieces.count)
    if step.isFinite && step > 0 {
      for (index, piece) in pieces.enumerated() {
        let n = lattice(y, piece)
        if let settled = isSettled(n, piece) {
          if settled && !isShifted { break }
          continue
        }
        let below = below(n, piece)
        guard below > 0 else { continue }
        weights[index] = Double(piece.seconds) * pmf(n, piece) / below / step
      }
    } else {
      // Every piece certain at y but not a step below: the busiest pieces carry it alone.
      let top = pieces.first.map { $0.shift + $0.rate } ?? 0
      let busiest = pieces.indices.filter { pieces[$0].shift + pieces[$0].rate == top }
      for index in busiest { weights[index] = 1 / Double(busiest.count) }
    }
    return (y * unit, weights)
  }
}
