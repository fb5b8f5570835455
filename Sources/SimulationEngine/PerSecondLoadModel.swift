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
/// The rates come as pieces (a rate and how many seconds have it), in any order.
public struct PerSecondLoadModel: Sendable {
  public struct Piece: Sendable, Equatable {
    public let rate: Double
    public let seconds: Int

    public init(rate: Double, seconds: Int) {
      self.rate = rate
      self.seconds = seconds
    }
  }

  /// Busiest first (of equally busy ones, the first given first).
  public let pieces: [Piece]
  /// Where each of ``pieces`` was in the pieces given: sensitivities are in this order.
  public let order: [Int]
  public let dispersion: Double
  public let secondCount: Int

  public init(pieces given: [Piece], dispersion: Double) {
    GSL.configure()
    order = given.indices.sorted { (given[$0].rate, $1) > (given[$1].rate, $0) }
    pieces = order.map { given[$0] }
    self.dispersion = Swift.max(1, dispersion)
    secondCount = pieces.reduce(0) { $0 + $1.seconds }
  }

  /// The mean of `N` in a piece.
  @inline(__always)
  private func mean(_ piece: Piece) -> Double { piece.rate / dispersion }

  /// `P(N <= n)` and `P(N > n)` for a piece, each computed where it is accurate.
  @inline(__always)
  private func cdf(_ n: Int, _ piece: Piece) -> (below: Double, above: Double) {
    let mu = mean(piece)
    guard mu > 0 else { return (1, 0) }
    let k = UInt32(clamping: n)
    return (gsl_cdf_poisson_P(k, mu), gsl_cdf_poisson_Q(k, mu))
  }

  @inline(__always)
  private func pmf(_ n: Int, _ piece: Piece) -> Double {
    let mu = mean(piece)
    guard mu > 0 else { return n == 0 ? 1 : 0 }
    return gsl_ran_poisson_pdf(UInt32(clamping: n), mu)
  }

  /// Whether `N <= n` is certain to double precision for a piece (its mean far below), or impossible (far
  /// above): no distribution function needs computing.
  @inline(__always)
  private func isSettled(_ n: Int, _ piece: Piece) -> Bool? {
    let mu = mean(piece)
    let x = Double(n)
    if mu + 15 * (mu + 1).squareRoot() + 30 < x { return true }
    if x + 15 * (mu + 1).squareRoot() + 30 < mu { return false }
    return nil
  }

  /// A lattice point past every piece's likely values: where searches start from above.
  private var ceiling: Int {
    let top = pieces.first.map(mean) ?? 0
    return Int(top + 20 * (top + 1).squareRoot() + 60)
  }

  /// The smallest lattice point `n` (requests `D n`) for which `holds(n)` is true, given it is true at
  /// `ceiling` and monotone.
  private func smallest(_ holds: (Int) -> Bool) -> Int {
    var high = ceiling
    while !holds(high) { high *= 2 }
    var low = -1  // holds(low) false (below every value)
    while high - low > 1 {
      let middle = (low + high) / 2
      if holds(middle) { high = middle } else { low = middle }
    }
    return high
  }

  // MARK: The distribution over seconds

  /// The seconds (expected) with at most `D n` requests.
  private func secondsAtMost(_ n: Int) -> Double {
    var seconds = 0.0
    for piece in pieces {
      switch isSettled(n, piece) {
      case true?: seconds += Double(piece.seconds)
      case false?: continue
      case nil: seconds += Double(piece.seconds) * cdf(n, piece).below
      }
    }
    return seconds
  }

  /// The `p` quantile of the requests in a second over the run (the fleet's p99 for `p = 0.99`), and how it
  /// moves with each piece's rate (`d quantile / d rate`, in piece order; they add up to 1).
  public func quantile(_ p: Double) -> (value: Double, sensitivities: [Double]) {
    guard secondCount > 0 else { return (.nan, []) }
    let target = p * Double(secondCount)
    let n = smallest { secondsAtMost($0) >= target }
    // d quantile / d rate_b = L_b pmf_b(n) / sum L pmf(n): the weights of the seconds at the quantile.
    var weights = pieces.map { isSettled(n, $0) == nil ? Double($0.seconds) * pmf(n, $0) : 0 }
    let sum = weights.reduce(0, +)
    if sum > 0 { weights = weights.map { $0 / sum } }
    return (dispersion * Double(n), weights)
  }

  // MARK: The busiest second

  /// `log P(max <= D n)`.
  private func logAllAtMost(_ n: Int) -> Double {
    var sum = 0.0
    for piece in pieces {
      if let settled = isSettled(n, piece) {
        if settled { break }  // and every piece after it: they are quieter
        return -.infinity
      }
      let (below, above) = cdf(n, piece)
      sum += Double(piece.seconds) * (above < 0.5 ? log1p(-above) : log(below))
      if above < 1e-18 { break }
    }
    return sum
  }

  /// The `p` quantile of the busiest second of the run (its median for `p = 0.5`).
  public func busiestSecond(_ p: Double) -> Double {
    guard secondCount > 0 else { return .nan }
    let target = log(p)
    return dispersion * Double(smallest { logAllAtMost($0) >= target })
  }

  /// The median busiest second and how it moves with each piece's rate (`d median / d rate`, in piece
  /// order): implicit differentiation of `sum L log F(y) = log 1/2`, with `d F / d rate = -pmf / D` for
  /// a quasi-Poisson count and the change in `y` one lattice step makes.
  public func medianBusiestSecond() -> (value: Double, sensitivities: [Double]) {
    guard secondCount > 0 else { return (.nan, []) }
    let n = smallest { logAllAtMost($0) >= log(0.5) }
    let step = logAllAtMost(n) - (n > 0 ? logAllAtMost(n - 1) : -.infinity)
    var weights = Array(repeating: 0.0, count: pieces.count)
    if step.isFinite && step > 0 {
      for (index, piece) in pieces.enumerated() {
        if let settled = isSettled(n, piece) {
          if settled { break }
          continue
        }
        let below = cdf(n, piece).below
        guard below > 0 else { continue }
        weights[index] = Double(piece.seconds) * pmf(n, piece) / below / step
      }
    } else {
      // Every piece certain at n but not at n - 1: the busiest pieces carry it alone.
      let top = pieces.first?.rate ?? 0
      let busiest = pieces.indices.filter { pieces[$0].rate == top }
      for index in busiest { weights[index] = 1 / Double(busiest.count) }
    }
    return (dispersion * Double(n), weights)
  }
}
