import Results
import SimulationEngine

/// What the Live Activities write down, and nothing more of a replication's result: the pushes they count,
/// the server's activity pushes, the views and staleness their surfaces show, and the energy their pushes
/// and renders cost. The device hands its result in; a test hands in a log of its own and reads it back.
protocol ActivityRecording: EnergyRecording {
  mutating func countPush(hourIndex: Int, target: PushTarget, priority: Int, _ counter: PushCounter)
  /// An activity push through the server at `time` (the device's clock, `offset` ahead of UTC): sent, or
  /// `delivered` to the device.
  mutating func recordActivityPush(delivered: Bool, at time: SimTime, offset: SimDuration)
  /// A view of an activity of kind `kind` whose content was `staleness` behind.
  mutating func recordActivityStaleness(kind: Int, _ staleness: SimDuration)
  mutating func countActivityView(kind: Int, _ surface: ActivitySurface, pastStaleDate: Bool)
  /// The energy ledger's subject for activity kind `kind`.
  func activitySubject(_ kind: Int) -> Int
}
