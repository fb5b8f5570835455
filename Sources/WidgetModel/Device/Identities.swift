import SimulationEngine

/// A widget instance of the run: its position in ``ScenarioConfiguration/instances`` (the order reports use).
public struct InstanceID: Hashable, Sendable {
  public let index: Int

  public init(_ index: Int) {
    self.index = index
  }

  /// The event target naming this instance.
  var eventTarget: UInt32 { UInt32(index) }
}

/// A distinct widget kind of the run: its position in ``ScenarioConfiguration/kinds``.
struct KindID: Hashable {
  let index: Int
  init(_ index: Int) { self.index = index }
}

/// A Live Activity kind: its position in ``ScenarioConfiguration/liveActivities``.
public struct ActivityKindID: Hashable, Sendable {
  public let index: Int

  public init(_ index: Int) {
    self.index = index
  }

  var eventTarget: UInt32 { UInt32(index) }
}

/// One started (or refused) Live Activity on one device: its position among that device's attempts.
struct ActivityID: Hashable {
  let index: Int
  init(_ index: Int) { self.index = index }
  var eventTarget: UInt32 { UInt32(index) }
}

/// One of the device's Poisson processes: its position in the process table.
struct ProcessID: Hashable {
  let index: Int
  init(_ index: Int) { self.index = index }
  var eventTarget: UInt32 { UInt32(index) }
}

/// Where a push goes: the app's widget topic, or a Live Activity kind's push tokens. Reports number them
/// (``index``): 0 for the widget topic, 1 + k for Live Activity kind k.
public enum PushTarget: Hashable, Sendable {
  case widgetTopic
  case activity(ActivityKindID)

  /// The target's column in push counts.
  public var index: Int {
    switch self {
    case .widgetTopic: 0
    case .activity(let kind): 1 + kind.index
    }
  }
}
