#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The generalized Pareto law of excesses over a high threshold (peaks over threshold: Pickands, Annals of
/// Statistics 3, 1975), fitted by probability-weighted moments (Hosking and Wallis, "Parameter and quantile
/// estimation for the generalized Pareto distribution", Technometrics 29, 1987), which stay sound for the
/// small samples of excesses a threshold leaves. `P(X > x) = (1 + shape x / scale)^(-1 / shape)`; a shape
/// above 0 is a heavy tail (Pareto-like), 0 exponential, below 0 bounded.
public struct GeneralizedPareto: Sendable, Equatable {
  public let shape: Double
  public let scale: Double

  /// Shapes are held to this range: beyond it a few dozen excesses say too little to extrapolate on.
  public static let shapes = -0.5...0.8

  public init(shape: Double, scale: Double) {
    self.shape = shape
    self.scale = scale
  }

  /// The law fitted to `excesses` (each above 0), nil for fewer than 10 or none spread.
  public init?(excesses: [Double]) {
    guard excesses.count >= 10 else { return nil }
    let sorted = excesses.sorted()
    let count = Double(sorted.count)
    // a0 = E[X], a1 = E[X (1 - F(X))], the plotting positions (i - 0.35) / n.
    var a0 = 0.0
    var a1 = 0.0
    for (index, value) in sorted.enumerated() {
      a0 += value
      a1 += value * (1 - (Double(index + 1) - 0.35) / count)
    }
    a0 /= count
    a1 /= count
    let denominator = a0 - 2 * a1
    guard a0 > 0, denominator > 0 else { return nil }
    let shape = Swift.min(
      Swift.max(2 - a0 / denominator, GeneralizedPareto.shapes.lowerBound), GeneralizedPareto.shapes.upperBound)
    // The scale from the mean, given the (held) shape: E[X] = scale / (1 - shape).
    self.init(shape: shape, scale: a0 * (1 - shape))
  }

  /// The excess exceeded with probability `probability` (in (0, 1]).
  public func quantile(exceedance probability: Double) -> Double {
    abs(shape) < 1e-9
      ? scale * log(1 / probability)
      : scale / shape * (pow(probability, -shape) - 1)
  }
}
