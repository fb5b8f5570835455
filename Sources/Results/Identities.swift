import SimulationEngine

/// A widget instance of the run: its position in `ScenarioConfiguration.instances` (the order reports use).
public struct InstanceID: Hashable, Sendable {
  public let index: Int

  @inlinable public init(_ index: Int) {
    self.index = index
  }

  /// The event target naming this instance.
  @inlinable package var eventTarget: UInt32 { UInt32(index) }
}

/// A Live Activity kind: its position in `ScenarioConfiguration.liveActivities`.
public struct ActivityKindID: Hashable, Sendable {
  public let index: Int

  @inlinable public init(_ index: Int) {
    self.index = index
  }

  @inlinable package var eventTarget: UInt32 { UInt32(index) }
}

/// Where a push goes: the app's widget topic, or a Live Activity kind's push tokens. Reports number them
/// (``index``): 0 for the widget topic, 1 + k for Live Activity kind k.
public enum PushTarget: Hashable, Sendable {
  case widgetTopic
  case activity(ActivityKindID)

  /// The target's column in push counts.
  @inlinable public var index: Int {
    switch self {
    case .widgetTopic: 0
    case .activity(let kind): 1 + kind.index
    }
  }
}
