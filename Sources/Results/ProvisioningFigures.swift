/// What one request stream (or what the servers receive, or send) asks of them per second over the run, scaled
/// to the real fleet: the mean, the 99th percentile and the busiest second, and the most bytes fetched in one
/// second.
public struct ProvisioningFigures: Sendable, Equatable {
  /// `received`, `sent`, or a ``ServerStream`` name.
  public let stream: String
  public let meanPerSecond: Double
  public let p99PerSecond: Double
  public let peakPerSecond: Double
  /// The busiest second (since 00:00 UTC of the first measured day).
  public let peakSecond: Int
  /// Fetch streams and `received` only.
  public let peakBytesPerSecond: Double?
  /// When each simulated device stands for more than one phone: the figures above are the whole fleet's,
  /// estimated from the sample (``SampledLoadEstimate``), each with its interval, and these are the sample's
  /// counts times the scale (biased upward: kept, labelled `raw_`, for comparison). Nil when every phone is
  /// simulated: the figures are then counted, not estimated. A stream's (not a side's) p99, busiest second
  /// and bytes are not estimable from a sample: they stay the sample's, the same as these, with no interval.
  public var raw: RawFigures? = nil
  public var p99Interval: SampledInterval? = nil
  public var peakInterval: SampledInterval? = nil
  public var peakBytesInterval: SampledInterval? = nil
  /// Whether an estimate came out above what the whole fleet can make in a second (``FleetLoadLimits``) and
  /// was held to it: a bug in the estimate, which tests assert no example shows.
  public var heldToLimit = false

  /// The sample's p99, busiest second and most bytes in a second, times the scale.
  public struct RawFigures: Sendable, Equatable {
    public let p99PerSecond: Double
    public let peakPerSecond: Double
    public let peakSecond: Int
    public let peakBytesPerSecond: Double?
  }
}
