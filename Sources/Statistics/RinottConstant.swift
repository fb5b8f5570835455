import CGSL
import SimulationEngine
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Rinott's constant h for a two-stage selection of the best of `designs` systems with `firstStage`
/// replications each and probability `confidence` of a correct selection (Rinott, "On two-stage selection
/// procedures and related probability-inequalities", Communications in Statistics A7, 1978): the h solving
///
///     ∫₀^∞ [ ∫₀^∞ Φ( h / √((n₀−1)(1/x + 1/y)) ) f(x) dx ]^(k−1) f(y) dy = confidence,
///
/// f the density of a chi-square with n₀−1 degrees of freedom. A two-stage procedure then takes
/// max(n₀, ⌈(h·Sᵢ/δ)²⌉) replications of design i, Sᵢ its first stage's standard deviation.
///
/// Computed, not read from a table: each integral over x (and y) is taken over the chi-square's
/// probability u = F(x) by the midpoint rule (x = F⁻¹(u), so the density drops out), and h is found by
/// bisection, the left side rising in h.
public enum RinottConstant {
  /// Points of the midpoint rule on each axis; the left side is then within about 1e-3 of its integral (the tests check h against its limits and a
  /// simulation).
  static let nodes = 256

  /// Constants computed so far, by (designs, first stage, confidence): a selection asks once a run, tests
  /// hundreds of times.
  private static let computed = Mutex<[String: Double]>([:])

  /// h for `designs` >= 2 systems, `firstStage` >= 2 replications and `confidence` in (0, 1).
  public static func h(designs: Int, firstStage: Int, confidence: Double) -> Double {
    let key = "\(designs) \(firstStage) \(confidence)"
    if let known = computed.withLock({ $0[key] }) { return known }
    let value = solve(designs: designs, firstStage: firstStage, confidence: confidence)
    computed.withLock { $0[key] = value }
    return value
  }

  public static func solve(designs: Int, firstStage: Int, confidence: Double) -> Double {
    GSL.configure()
    let degrees = Double(firstStage - 1)
    let quantiles = (0..<nodes).map { gsl_cdf_chisq_Pinv((Double($0) + 0.5) / Double(nodes), degrees) }
    var low = 0.0
    var high = 1.0
    while probability(h: high, quantiles: quantiles, degrees: degrees, designs: designs) < confidence {
      low = high
      high *= 2
    }
    for _ in 0..<40 {
      let middle = (low + high) / 2
      if probability(h: middle, quantiles: quantiles, degrees: degrees, designs: designs) < confidence {
        low = middle
      } else {
        high = middle
      }
    }
    return (low + high) / 2
  }

  /// The left side of Rinott's equation at `h`.
  static func probability(h: Double, quantiles: [Double], degrees: Double, designs: Int) -> Double {
    var outer = 0.0
    for y in quantiles {
      var inner = 0.0
      for x in quantiles { inner += gsl_cdf_ugaussian_P(h / (degrees * (1 / x + 1 / y)).squareRoot()) }
      outer += pow(inner / Double(quantiles.count), Double(designs - 1))
    }
    return outer / Double(quantiles.count)
  }

  /// The replications a two-stage procedure takes of a design whose first stage has standard deviation
  /// `deviation`, for indifference `indifference`.
  public static func replications(h: Double, deviation: Double, indifference: Double, firstStage: Int) -> Int {
    let needed = (h * deviation / indifference) * (h * deviation / indifference)
    guard needed.isFinite, needed < 1e12 else { return Int(1e12) }
    return max(firstStage, Int(needed.rounded(.up)))
  }
}
