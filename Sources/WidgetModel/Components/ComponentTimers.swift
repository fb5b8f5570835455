import Results
import SimulationEngine

/// What every component may ask of the device's clock: the time now, and one of its pending events
/// cancelled. Each component's own protocol below adds the events it may schedule, and nothing else of the
/// scheduler: the device's scheduler performs them in the order they are asked
/// (`Device/Scheduler+ComponentTimers.swift`), so equal times keep their order; a test keeps a log instead.
protocol DeviceClock: ~Copyable {
  var now: SimTime { get }
  /// Cancels a pending event; `false` if it already ran or was cancelled.
  @discardableResult
  mutating func cancel(_ handle: EventHandle) -> Bool
}

/// The user's timers: the next sleep or wake (``User``).
protocol UserTimers: DeviceClock, ~Copyable {
  @discardableResult
  mutating func schedule(_ event: UserEvent, at time: SimTime) -> EventHandle
}

/// A display's timers: its next refresh (``DockedDisplay``).
protocol DisplayTimers: DeviceClock, ~Copyable {
  @discardableResult
  mutating func schedule(_ event: DisplayEvent, at time: SimTime) -> EventHandle
}

/// The app's timers: a session's end (``AppSession``), the system's look at its Background App Refresh
/// request (``BackgroundRefresh``).
protocol AppTimers: DeviceClock, ~Copyable {
  @discardableResult
  mutating func schedule(_ event: AppSessionEvent, at time: SimTime) -> EventHandle
  @discardableResult
  mutating func schedule(_ event: AppRequestEvent, at time: SimTime) -> EventHandle
}

/// The process table's timers: a process's next firing (``ProcessTable``).
protocol ProcessTimers: DeviceClock, ~Copyable {
  @discardableResult
  mutating func scheduleFiring(of process: ProcessID, at time: SimTime) -> EventHandle
}

/// The data bursts' timers: a kind's next start, a burst's next update (``DataBursts``).
protocol DataTimers: DeviceClock, ~Copyable {
  @discardableResult
  mutating func schedule(_ event: DataEvent, for target: UInt32, at time: SimTime) -> EventHandle
}

/// The fleet-wide events' timers: an event's next occurrence (``FleetEvents``).
protocol FleetTimers: DeviceClock, ~Copyable {
  @discardableResult
  mutating func schedule(_ event: FleetWideEvent, for target: UInt32, at time: SimTime) -> EventHandle
}

/// The Live Activities' timers: an activity's update, delivery, end, system end or dismissal, a channel's
/// broadcast (``LiveActivities``), and a kind's fixed daily start, which the device performs.
protocol ActivityTimers: DeviceClock, ~Copyable {
  /// Schedules `event` for `target` (an activity, or a channel for a broadcast update) at `time`.
  @discardableResult
  mutating func schedule(_ event: ActivityEvent, for target: UInt32, at time: SimTime) -> EventHandle
  /// Schedules kind `kind`'s fixed start at `time` (the device performs the start).
  mutating func scheduleStart(_ kind: ActivityKindID, at time: SimTime)
}
