import CGSL

/// A gamma law shifted to match a sum's first three cumulants (mean, variance, third cumulant): the
/// approximation of a compound Poisson sum (Seal, "Approximations to risk theory's F(x, t) by means of the gamma
/// distribution", ASTIN Bulletin 9, 1977) that keeps the skew a few large terms give it, which a law matched
/// on two moments (a negative binomial) does not: the bytes of a second whose responses differ in size.
public struct ShiftedGamma: Sendable, Equatable {
  public let shape: Double
  public let scale: Double
  public let shift: Double

  /// The law of `mean`, `variance` and `thirdCumulant` (nil unless the variance and the skew are above 0).
  public init?(mean: Double, variance: Double, thirdCumulant: Double) {
    guard variance > 0, thirdCumulant > 0 else { return nil }
    let skew = thirdCumulant / (variance * variance.squareRoot())
    shape = 4 / (skew * skew)
    scale = variance.squareRoot() * skew / 2
    shift = mean - shape * scale
  }

  /// The value exceeded with probability `tail`.
  public func quantile(exceedance tail: Double) -> Double {
    GSL.configure()
    return shift + scale * gsl_cdf_gamma_Qinv(tail, shape, 1)
  }
}
