/// The server side of a build's fetch: the latency before the first byte. The transfer itself runs over
/// the device's current radio (`DeviceConfiguration.radios`), at that radio's throughput.
public struct NetworkConfiguration: Sendable {
  /// Seconds before the first byte ([A] 0.1 s), on top of any radio promotion.
  public var latencySeconds: Double

  public init(latencySeconds: Double = 0.1) {
    self.latencySeconds = latencySeconds
  }
}
