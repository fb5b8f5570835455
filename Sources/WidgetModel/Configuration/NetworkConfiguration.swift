/// The network a timeline build fetches over, as far as its duration is concerned: a fetch takes
/// `latency + bytes × 8 / throughput`. (The energy model refines the radio; this only times builds.)
public struct NetworkConfiguration: Sendable {
  /// Bits per second ([A] 10 Mbit/s).
  public var throughputBitsPerSecond: Double
  /// Seconds before the first byte ([A] 0.1 s).
  public var latencySeconds: Double

  public init(throughputBitsPerSecond: Double = 10_000_000, latencySeconds: Double = 0.1) {
    self.throughputBitsPerSecond = throughputBitsPerSecond
    self.latencySeconds = latencySeconds
  }

  /// How long fetching `bytes` takes, in seconds.
  public func fetchSeconds(bytes: Double) -> Double {
    latencySeconds + bytes * 8 / throughputBitsPerSecond
  }
}
