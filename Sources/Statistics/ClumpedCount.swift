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
/// requests a second, all in pairs, the busiest of 20,000 seconds is 18 under the negative binomial and 14
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
  /// Clumps' mean at most, for the sums below to stay short (about `24 sqrt(clumps)` terms about the mean).
  public static let largestClumpMean = 4_000.0

  /// `sum_j P(N2 = j) singles(n - size j)` (each of the three functions below, with the singles' own, at most
  /// 1): from 12 standard deviations below the clumps' mean up to `n / size`, stopped past the mean once the
  /// clumps' probability is below 1e-17 of the sum (the terms after it are smaller still, and add up to
  /// less than that: the clumps' tail falls faster than geometrically there). A sum far in the upper tail,
  /// where larger clumps' counts carry it, runs as far as they do.
  @inline(__always)
  private func overClumps(_ n: Int, _ singles: (Int) -> Double) -> Double {
    let low = Swift.max(0, Int((clumps - 12 * clumps.squareRoot() - 12).rounded(.down)))
    let top = n / size
    guard low <= top else { return 0 }
    var sum = 0.0
    var weight = ClumpedCount.poissonProbability(low, clumps)
    for j in low...top {
      sum += weight * singles(n - size * j)
      weight *= clumps / Double(j + 1)
      if Double(j) > clumps && weight < 1e-17 * sum { break }
    }
    return sum
  }

  /// `P(count <= n)`.
  public func atMost(_ n: Int) -> Double {
    guard n >= 0 else { return 0 }
    return Swift.min(1, overClumps(n) { ClumpedCount.poissonAtMost($0, singles) })
  }

  /// `P(count > n)`, accurate where it is tiny: each clumps' count up to `n / size` with the singles above
  /// the rest, and every larger one whole.
  public func above(_ n: Int) -> Double {
    guard n >= 0 else { return 1 }
    let larger = ClumpedCount.poissonAbove(n / size, clumps)
    return Swift.min(1, larger + overClumps(n) { ClumpedCount.poissonAbove($0, singles) })
  }

  /// `P(count = n)`.
  public func probability(_ n: Int) -> Double {
    guard n >= 0 else { return 0 }
    return overClumps(n) { ClumpedCount.poissonProbability($0, singles) }
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
