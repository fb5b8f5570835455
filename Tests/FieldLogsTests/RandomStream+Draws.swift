import SimulationEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The draws the independent field logs need, from a stream's uniforms (none of the model's samplers).
extension RandomStream {
  /// A lognormal draw (Box-Muller normal).
  func lognormal(median: Double, sigma: Double) -> Double {
    let normal = (-2 * log(uniformPositive())).squareRoot() * cos(2 * Double.pi * uniform())
    return median * exp(sigma * normal)
  }

  /// A Poisson count of mean `mean` (exponential gaps in one unit of time).
  func poisson(mean: Double) -> Int {
    var (count, clock) = (0, exponential(mean: 1))
    while clock < mean {
      count += 1
      clock += exponential(mean: 1)
    }
    return count
  }
}
