/// The truncation rules for drawn quantities the model adds up (documented in Scenarios/README.md,
/// Distributions): a negative draw counts as 0, and a draw past the cap as the cap. The caps are far beyond
/// anything real; they keep absurd tails (a Pareto with shape 0.01, a lognormal with sigma 50) finite, so
/// no infinity or NaN reaches a sum, and no conversion to an integer counter can trap.
enum SampleLimits {
  /// One day, for a build's CPU time.
  static let longestSeconds = 86_400.0
  /// One TiB, for a fetch.
  static let largestBytes = 1_099_511_627_776.0

  @inline(__always)
  static func duration(_ seconds: Double) -> Double {
    seconds.isNaN ? 0 : Swift.min(Swift.max(0, seconds), longestSeconds)
  }

  @inline(__always)
  static func size(_ bytes: Double) -> Double {
    bytes.isNaN ? 0 : Swift.min(Swift.max(0, bytes), largestBytes)
  }
}
