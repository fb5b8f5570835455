import SimulationEngine

/// What the Live Activities ask of the device's clock, and nothing more of its scheduler: the time now, one of
/// their own events scheduled at a time (an activity's update, delivery, end, system end or dismissal; a
/// channel's broadcast; a kind's fixed daily start), and a pending one cancelled. The device performs these
/// on its scheduler in the order they are asked (`Device/Scheduler+ComponentTimers.swift`); a test keeps a
/// log of them instead.
protocol ActivityTimers: ~Copyable {
  var now: SimTime { get }
  /// Schedules `event` for `target` (an activity, or a channel for a broadcast update) at `time`.
  @discardableResult
  mutating func schedule(_ event: ActivityEvent, for target: UInt32, at time: SimTime) -> EventHandle
  /// Schedules kind `kind`'s fixed start at `time` (the device performs the start).
  mutating func scheduleStart(_ kind: ActivityKindID, at time: SimTime)
  /// Cancels a pending event; `false` if it already ran or was cancelled.
  @discardableResult
  mutating func cancel(_ handle: EventHandle) -> Bool
}
