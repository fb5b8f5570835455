import CGSL

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A count per second made of single requests and clumps of `size` requests that come together (a phone's
/// WidgetKit push and Live Activity push for one order update, sent in the same second): `N1 + size * N2`,
/// with `N1` and `N2` Poisson, of mean `rate` and variance `dispersion * rate`. A compound Poisson count
/// (Johnson, Kemp and Kotz, "Univariate Discrete Distributions", 3rd ed., 2005, section 9.3) whose clump
/// sizes take two values, 1 and `size`.
///
/// A negative binomial of the same mean and variance (``PerSecondLoadModel``'s law otherwise) is a Poisson
/// count whose rate varies; its tail is heavier than that of requests that come in pairs: at a mean of two
/// requests a second, all in pairs, the busiest of 20,000 seconds is 17 under the negative binomial and 14
/// under pairs. Which of the two a series is shows in its third cumulant per request, `E[K^3] / E[K]` for
/// clumps of `K` requests (``size(dispersion:skew:)``).
public struct ClumpedCount: Sendable {
  /// Singles' and clumps' Poisson means.
  public let singles: Double
  public let clumps: Double
  public let size: Int

  /// The count of mean `rate` and variance `dispersion * rate` (`1 <= dispersion <= size`).
  public init(rate: Double, dispersion: Double, size: Int) {
    precondition(size >= 2 && dispersion >= 1 && dispersion <= Double(size), "clumps of \(size) at \(dispersion)")
    let c = Double(size)
    self.size = size
    clumps = Swift.max(0, rate * (dispersion - 1) / (c * (c - 1)))
    singles = Swift.max(0, rate - c * clumps)
  }

  /// The clump size that matches a series' dispersion `dispersion` (`E[K^2] / E[K]`) and third cumulant per
  /// request `skew` (`E[K^3] / E[K]`): with singles and clumps of `c`, `skew = 1 + (dispersion - 1)(c + 1)`.
  /// At least 2, and at least the dispersion (singles' mean cannot be negative). Nil where the series is as
  /// skewed as a negative binomial of its dispersion or more (`dispersion (2 dispersion - 1)`: rates that
  /// vary, not clumps), or too close to Poisson for its clumps to matter (``leastDispersion``).
  public static func size(dispersion: Double, skew: Double) -> Int? {
    guard dispersion > leastDispersion, skew.isFinite, skew < dispersion * (2 * dispersion - 1) else { return nil }
    let matched = (skew - 1) / (dispersion - 1) - 1
    let size = Swift.max(2, dispersion.rounded(.up), matched.rounded())
    return size <= Double(largestSize) ? Int(size) : nil
  }

  /// Below this dispersion a series is taken as Poisson, whatever its skew says: its clumps are too few for
  /// their size to be read.
  public static let leastDispersion = 1.05
  /// Clumps larger than this are a negative binomial's business (a phone's widgets fetching together are a
  /// handful).
  public static let largestSize = 64
  /// Clumps' mean at most, for the sums below to stay short (about `24 sqrt(clumps)` terms).
  public static let largestClumpMean = 4_000.0

  /// The clumps' counts `j` that carry `N1 + size * N2 <= n` to double precision: from 12 standard deviations
  /// below their mean to `n / size`.
  @inline(__always)
  private func clumpRange(_ n: Int) -> ClosedRange<Int>? {
    let top = n / size
    let low = Swift.max(0, Int((clumps - 12 * clumps.squareRoot() - 12).rounded(.down)))
    return low <= top ? low...top : nil
  }

  /// `P(count <= n)`.
  public func atMost(_ n: Int) -> Double {
    guard n >= 0 else { return 0 }
    guard let range = clumpRange(n) else { return 0 }
    var sum = 0.0
    var weight = ClumpedCount.poissonProbability(range.lowerBound, clumps)
    for j in range {
      sum += weight * ClumpedCount.poissonAtMost(n - size * j, singles)
      weight *= clumps / Double(j + 1)
    }
    return Swift.min(1, sum)
  }

  /// `P(count > n)`, accurate where it is tiny: the clumps' counts up to `n / size` with the singles above
  /// the rest, and every larger clumps' count whole.
  public func above(_ n: Int) -> Double {
    guard n >= 0 else { return 1 }
    let top = n / size
    var sum = ClumpedCount.poissonAbove(top, clumps)
    if let range = clumpRange(n) {
      var weight = ClumpedCount.poissonProbability(range.lowerBound, clumps)
      for j in range {
        sum += weight * ClumpedCount.poissonAbove(n - size * j, singles)
        weight *= clumps / Double(j + 1)
      }
    }
    return Swift.min(1, sum)
  }

  /// `P(count = n)`.
  public func probability(_ n: Int) -> Double {
    guard n >= 0, let range = clumpRange(n) else { return 0 }
    var sum = 0.0
    var weight = ClumpedCount.poissonProbability(range.lowerBound, clumps)
    for j in range {
      sum += weight * ClumpedCount.poissonProbability(n - size * j, singles)
      weight *= clumps / Double(j + 1)
    }
    return sum
  }

  /// GSL's Poisson distribution functions, with a mean of 0 (a point at 0) allowed.
  @inline(__always)
  private static func poissonProbability(_ k: Int, _ mean: Double) -> Double {
    mean > 0 ? gsl_ran_poisson_pdf(UInt32(k), mean) : (k == 0 ? 1 : 0)
  }

  @inline(__always)
  private static func poissonAtMost(_ k: Int, _ mean: Double) -> Double {
    mean > 0 ? gsl_cdf_poisson_P(UInt32(k), mean) : 1
  }

  @inline(__always)
  private static func poissonAbove(_ k: Int, _ mean: Double) -> Double {
    mean > 0 ? gsl_cdf_poisson_Q(UInt32(k), mean) : 0
  }
}
