import CGSL

/// The two-sample Kolmogorov-Smirnov test: the largest distance between two samples' empirical
/// distribution functions, and the probability of a distance at least that large when both samples come
/// from one continuous distribution (Kolmogorov's limiting distribution with Stephens' small-sample
/// correction). Ties between the samples are stepped over together, so discrete data give the exact
/// distance between the step functions (the p-value is then conservative).
public struct TwoSampleKS: Sendable, Equatable {
  /// The largest distance between the two empirical distribution functions, 0...1.
  public let distance: Double
  public let p: Double
  public let countA: Int
  public let countB: Int

  /// The test of samples `a` and `b` (each non-empty; order does not matter). `independent` gives the number
  /// of independent units behind each sample when its values come in correlated groups (a phone's days):
  /// the p-value then counts those, not the values.
  public init(_ a: [Double], _ b: [Double], independent: (Int, Int)? = nil) {
    precondition(!a.isEmpty && !b.isEmpty, "two non-empty samples")
    let first = a.sorted()
    let second = b.sorted()
    var (i, j) = (0, 0)
    var largest = 0.0
    let (n, m) = (Double(first.count), Double(second.count))
    while i < first.count && j < second.count {
      let value = Swift.min(first[i], second[j])
      while i < first.count && first[i] == value { i += 1 }
      while j < second.count && second[j] == value { j += 1 }
      largest = Swift.max(largest, abs(Double(i) / n - Double(j) / m))
    }
    distance = largest
    countA = first.count
    countB = second.count
    let (units, otherUnits) = independent.map { (Double(Swift.max(1, $0.0)), Double(Swift.max(1, $0.1))) } ?? (n, m)
    let effective = (units * otherUnits / (units + otherUnits)).squareRoot()
    p = TwoSampleKS.kolmogorovTail((effective + 0.12 + 0.11 / effective) * largest)
  }

  /// P(K > x) for Kolmogorov's distribution: 2 sum_k (-1)^(k-1) exp(-2 k^2 x^2), 1 near zero.
  public static func kolmogorovTail(_ x: Double) -> Double {
    guard x > 0.2 else { return 1 }
    var sum = 0.0
    var sign = 1.0
    for k in 1...100 {
      let term = sign * 2 * exp(-2 * Double(k * k) * x * x)
      sum += term
      if abs(term) < 1e-12 * Swift.max(abs(sum), 1e-300) { break }
      sign = -sign
    }
    return Swift.min(1, Swift.max(0, sum))
  }
}
