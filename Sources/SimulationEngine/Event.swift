/// What an event means, as a small number the model defines and switches on.
///
/// The engine never interprets a kind. A model declares its kinds as constants
/// (`extension EventKind { static let timelineReload = EventKind(rawValue: 1) }`) and dispatches with a
/// `switch`, so processing an event costs no closure call and no existential (`any`) dispatch.
public struct EventKind: Hashable, Sendable, CustomStringConvertible {
  public let rawValue: UInt32

  @inlinable
  public init(rawValue: UInt32) {
    self.rawValue = rawValue
  }

  public var description: String { "kind \(rawValue)" }
}

/// One happening, as the event set hands it out: when, in what order among equal times, what, and to
/// which entity. A plain value; events at equal times run in the order they were scheduled.
public struct Event: Sendable, Equatable {
  /// When the event happens.
  public let time: SimTime
  /// Scheduling order within one event set: increasing, unique among pending events.
  public let sequence: UInt64
  /// What happens; interpreted by the model.
  public let kind: EventKind
  /// Index of the entity (widget instance, activity, user...) the event concerns; interpreted by the model.
  public let target: UInt32

  @inlinable
  public init(time: SimTime, sequence: UInt64, kind: EventKind, target: UInt32) {
    self.time = time
    self.sequence = sequence
    self.kind = kind
    self.target = target
  }
}

/// Names one pending event so it can be cancelled or superseded.
///
/// A handle stays safe to use after its event ran or was cancelled: cancelling it again is a no-op that
/// returns `false`. (Slots are reused with a 32-bit generation; a stale handle could only alias a new event
/// after 2^32 reuses of one slot.)
public struct EventHandle: Hashable, Sendable {
  @usableFromInline let slot: UInt32
  @usableFromInline let generation: UInt32

  @inlinable
  init(slot: UInt32, generation: UInt32) {
    self.slot = slot
    self.generation = generation
  }
}
