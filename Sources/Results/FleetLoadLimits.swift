/// The most a fleet's phones can send the servers in one second: every phone making every request it can
/// at once. An estimate from a sample above it is a bug in the estimate, never the fleet's figure: the
/// estimate is held to it and says so (``ProvisioningFigures/heldToLimit``), and tests assert that no
/// example comes near it.
public struct FleetLoadLimits: Sendable, Equatable {
  /// Phones in the whole fleet (`fleet.represents`).
  public let phones: Double
  /// Requests one phone can make in one second of what the servers receive: a fetch per widget instance
  /// that fetches, one per app wake channel, a push-token registration per Live Activity kind.
  public let receivedPerPhone: Double

  public init(phones: Double, receivedPerPhone: Double) {
    self.phones = phones
    self.receivedPerPhone = receivedPerPhone
  }

  /// Requests the servers can receive in one second at most.
  public var receivedPerSecond: Double { phones * receivedPerPhone }

  /// Bytes the servers can receive in one second at most, with `largestResponse` the most bytes one
  /// request fetched.
  public func bytesPerSecond(largestResponse: Double) -> Double { receivedPerSecond * largestResponse }
}
