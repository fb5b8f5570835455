import CGSL

/// A normal distribution restricted to [lower, upper], either bound optional.
@usableFromInline
struct TruncatedNormal: Sendable, Equatable {
  let mean: Double
  let sd: Double
  let lower: Double?
  let upper: Double?
  /// Standardised bounds, ±infinity where absent.
  let alpha: Double
  let beta: Double

  init(mean: Double, sd: Double, lower: Double?, upper: Double?) {
    self.mean = mean
    self.sd = sd
    self.lower = lower
    self.upper = upper
    alpha = lower.map { ($0 - mean) / sd } ?? -.infinity
    beta = upper.map { ($0 - mean) / sd } ?? .infinity
  }

  /// Probability the untruncated normal gives to the interval, computed in the tail where it is accurate.
  var mass: Double {
    alpha > 0 ? upperTail(alpha) - upperTail(beta) : lowerTail(beta) - lowerTail(alpha)
  }

  @usableFromInline
  func sample(_ rng: UnsafeMutablePointer<gsl_rng>) -> Double {
    switch (lower, upper) {
    case (let lower?, nil):
      // A bound below the mean (most draws pass): rejection from the fast ziggurat normal, the same
      // distribution as gsl_ran_gaussian_tail, which would use the slower Box-Muller normal here.
      if lower < mean {
        while true {
          let x = mean + gsl_ran_gaussian_ziggurat(rng, sd)
          if x >= lower { return x }
        }
      }
      return mean + gsl_ran_gaussian_tail(rng, lower - mean, sd)
    case (nil, let upper?):
      if upper > mean {
        while true {
          let x = mean + gsl_ran_gaussian_ziggurat(rng, sd)
          if x <= upper { return x }
        }
      }
      return mean - gsl_ran_gaussian_tail(rng, mean - upper, sd)
    default:
      let u = gsl_rng_uniform_pos(rng)
      let z: Double
      if alpha > 0 {
        let high = upperTail(alpha)
        let low = upperTail(beta)
        z = gsl_cdf_ugaussian_Qinv(low + u * (high - low))
      } else {
        let low = lowerTail(alpha)
        let high = lowerTail(beta)
        z = gsl_cdf_ugaussian_Pinv(low + u * (high - low))
      }
      // Rounding at the ends of the interval can step a hair outside it; clamp.
      return Swift.min(Swift.max(mean + sd * z, lower ?? -.infinity), upper ?? .infinity)
    }
  }

  /// Mean and variance of the truncated normal (Johnson, Kotz & Balakrishnan, vol. 1, 13.10).
  var moments: (mean: Double, variance: Double) {
    let z = mass
    let phiAlpha = density(alpha)
    let phiBeta = density(beta)
    let alphaTerm = alpha.isFinite ? alpha * phiAlpha : 0
    let betaTerm = beta.isFinite ? beta * phiBeta : 0
    let shift = (phiAlpha - phiBeta) / z
    let variance = sd * sd * (1 + (alphaTerm - betaTerm) / z - shift * shift)
    return (mean + sd * shift, variance)
  }

  private func density(_ z: Double) -> Double { z.isFinite ? gsl_ran_ugaussian_pdf(z) : 0 }
  private func lowerTail(_ z: Double) -> Double { z == -.infinity ? 0 : (z == .infinity ? 1 : gsl_cdf_ugaussian_P(z)) }
  private func upperTail(_ z: Double) -> Double { z == .infinity ? 0 : (z == -.infinity ? 1 : gsl_cdf_ugaussian_Q(z)) }
}
