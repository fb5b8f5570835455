/// How far a fleet run has got, for a progress line.
public struct FleetProgress: Sendable {
  public let devicesDone: Int
  public let devices: Int
  public let events: UInt64
  public let elapsedSeconds: Double

  public init(devicesDone: Int, devices: Int, events: UInt64, elapsedSeconds: Double) {
    self.devicesDone = devicesDone
    self.devices = devices
    self.events = events
    self.elapsedSeconds = elapsedSeconds
  }
}
