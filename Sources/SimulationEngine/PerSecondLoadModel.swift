import CGSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a large fleet's requests per second are, second by second, when its phones act independently at a
/// known rate: in a second of rate `r`, `D N` requests with `N` Poisson of mean `r / D` (a quasi-Poisson
/// count: mean `r`, variance `D r`; `D = 1` is Poisson). A superposition of many independent, individually
/// sparse request streams is Poisson in the limit (the Palm-Khintchine theorem; Cinlar, "Superposition of
/// point processes", 1972); `D` above 1 is what a phone's requests that come together in one second add.
/// Seconds are independent given their rates, so the fleet's busiest second over the run has the
/// distribution `P(max <= y) = prod_t P(Y_t <= y)`.
///
/// The rates come as pieces (a rate and how many seconds have it), in any order. A piece may also carry a
/// count each of its seconds holds for certain (`shift`: what the servers send on a fixed schedule, such as
/// a fan-out paced at a known rate), added to the drawn one: `Y = shift + D N`.
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

  /// Busiest first (of equally busy ones, the first given first).
  public let pieces: [Piece]
  /// Where each of ``pieces`` was in the pieces given: sensitivities are in this order.
  public let order: [Int]
  public let dispersion: Double
  public let secondCount: Int
  /// Whether some piece has a certain count: its values are then off the lattice `D n`, and a piece that is
  /// certain at a value does not make every quieter one certain.
  private let isShifted: Bool

  public init(pieces given: [Piece], dispersion: Double) {
    GSL.configure()
    order = given.indices.sorted {
      (given[$0].shift + given[$0].rate, $1) > (given[$1].shift + given[$1].rate, $0)
    }
    pieces = order.map { given[$0] }
    self.dispersion = Swift.max(1, dispersion)
    secondCount = pieces.reduce(0) { $0 + $1.seconds }
    isShifted = pieces.contains { $0.shift != 0 }
  }

  /// The mean of `N` in a piece.
  @inline(__always)
  private func mean(_ piece: Piece) -> Double { piece.rate / dispersion }

  /// The largest `n` with `shift + D n <= y` in a piece (negative: no value of the piece is that low).
  @inline(__always)
  private func lattice(_ y: Double, _ piece: Piece) -> Int {
    let steps = (y - piece.shift) / dispersion
    return steps < 0 ? -1 : Int(Swift.min((steps + 1e-9).rounded(.down), 4e9))
  }

  /// `P(N <= n)` and `P(N > n)` for a piece, each computed where it is accurate.
  @inline(__always)
  private func cdf(_ n: Int, _ piece: Piece) -> (below: Double, above: Double) {
    guard n >= 0 else { return (0, 1) }
    let mu = mean(piece)
    guard mu > 0 else { return (1, 0) }
    let k = UInt32(clamping: n)
    return (gsl_cdf_poisson_P(k, mu), gsl_cdf_poisson_Q(k, mu))
  }

  @inline(__always)
  private func pmf(_ n: Int, _ piece: Piece) -> Double {
    guard n >= 0 else { return 0 }
    let mu = mean(piece)
    guard mu > 0 else { return n == 0 ? 1 : 0 }
    return gsl_ran_poisson_pdf(UInt32(clamping: n), mu)
  }

  /// Whether `N <= n` is certain to double precision for a piece (its mean far below), or impossible (far
  /// above): no distribution function needs computing.
  @inline(__always)
  private func isSettled(_ n: Int, _ piece: Piece) -> Bool? {
    if n < 0 { return false }
    let mu = mean(piece)
    let x = Double(n)
    if mu + 15 * (mu + 1).squareRoot() + 30 < x { return true }
    if x + 15 * (mu + 1).squareRoot() + 30 < mu { return false }
    return nil
  }

  /// A value past every piece's likely values: where searches start from above.
  private var ceiling: Double {
    var top = 0.0
    for piece in pieces {
      let mu = mean(piece)
      top = Swift.max(top, piece.shift + dispersion * (mu + 20 * (mu + 1).squareRoot() + 60))
    }
    return top
  }

  /// The smallest value `y` at which `holds(y)` is true, given it is true at ``ceiling`` and monotone and
  /// changes only where some piece can take a value. Without certain counts those are the lattice `D n`;
  /// with them, the search narrows the reals and returns the last value a piece takes at or below its top.
  private func smallest(_ holds: (Double) -> Bool) -> Double {
    var high = ceiling
    while !holds(high) { high = 2 * high + 1 }
    guard isShifted else {
      var (low, top) = (-1, Int((high / dispersion).rounded(.up)))
      while top - low > 1 {
        let middle = (low + top) / 2
        if holds(dispersion * Double(middle)) { top = middle } else { low = middle }
      }
      return dispersion * Double(top)
    }
    var low = -1.0
    while high - low > 1e-7 * Swift.max(1, high) {
      let middle = (low + high) / 2
      if holds(middle) { high = middle } else { low = middle }
    }
    // The distribution is constant from the last value any piece takes at or below `high` up to `high`.
    var value = 0.0
    for piece in pieces where lattice(high, piece) >= 0 {
      value = Swift.max(value, piece.shift + dispersion * Double(lattice(high, piece)))
    }
    return value
  }

  // MARK: The distribution over seconds

  /// The seconds (expected) with at most `y` requests.
  private func secondsAtMost(_ y: Double) -> Double {
    var seconds = 0.0
    for piece in pieces {
      let n = lattice(y, piece)
      switch isSettled(n, piece) {
      case true?: seconds += Double(piece.seconds)
      case false?: continue
      case nil: seconds += Double(piece.seconds) * cdf(n, piece).below
      }
    }
    return seconds
  }

  /// The `p` quantile of the requests in a second over the run (the fleet's p99 for `p = 0.99`), and how it
  /// moves with each piece's rate (`d quantile / d rate`, in piece order; they add up to 1 unless certain
  /// counts alone set it).
  public func quantile(_ p: Double) -> (value: Double, sensitivities: [Double]) {
    guard secondCount > 0 else { return (.nan, []) }
    let target = p * Double(secondCount)
    let y = smallest { secondsAtMost($0) >= target }
    // d quantile / d rate_b = L_b pmf_b(n) / sum L pmf(n): the weights of the seconds at the quantile.
    var weights = pieces.map { piece in
      let n = lattice(y, piece)
      return isSettled(n, piece) == nil && piece.shift + dispersion * Double(n) == y
        ? Double(piece.seconds) * pmf(n, piece) : 0
    }
    let sum = weights.reduce(0, +)
    if sum > 0 { weights = weights.map { $0 / sum } }
    return (y, weights)
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
      let (below, above) = cdf(n, piece)
      sum += Double(piece.seconds) * (above < 0.5 ? log1p(-above) : log(below))
      if above < 1e-18 && !isShifted { break }
    }
    return sum
  }

  /// The `p` quantile of the busiest second of the run (its median for `p = 0.5`).
  public func busiestSecond(_ p: Double) -> Double {
    guard secondCount > 0 else { return .nan }
    let target = log(p)
    return smallest { logAllAtMost($0) >= target }
  }

  /// The median busiest second and how it moves with each piece's rate (`d median / d rate`, in piece
  /// order): implicit differentiation of `sum L log F(y) = log 1/2`, with `d F / d rate = -pmf / D` for
  /// a quasi-Poisson count and the change in `y` one step of the piece's lattice makes. A piece's certain
  /// count moves it as much as its rate does.
  public func medianBusiestSecond() -> (value: Double, sensitivities: [Double]) {
    guard secondCount > 0 else { return (.nan, []) }
    let y = smallest { logAllAtMost($0) >= log(0.5) }
    let step = logAllAtMost(y) - logAllAtMost(y - dispersion)
    var weights = Array(repeating: 0.0, count: pieces.count)
    if step.isFinite && step > 0 {
      for (index, piece) in pieces.enumerated() {
        let n = lattice(y, piece)
        if let settled = isSettled(n, piece) {
          if settled && !isShifted { break }
          continue
        }
        let below = cdf(n, piece).below
        guard below > 0 else { continue }
        weights[index] = Double(piece.seconds) * pmf(n, piece) / below / step
      }
    } else {
      // Every piece certain at y but not a step below: the busiest pieces carry it alone.
      let top = pieces.first.map { $0.shift + $0.rate } ?? 0
      let busiest = pieces.indices.filter { pieces[$0].shift + pieces[$0].rate == top }
      for index in busiest { weights[index] = 1 / Double(busiest.count) }
    }
    return (y, weights)
  }
}
