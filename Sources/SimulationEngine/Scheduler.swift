/// A model's reaction to events, called by ``Scheduler/run(until:handler:)`` once per event.
///
/// The run loop is generic over the handler, so in a release build each model gets its own specialised
/// loop: dispatch is a `switch` on ``Event/kind`` inside `handle`, never a closure or an `any` call.
public protocol EventHandler {
  /// Reacts to `event`; `scheduler.now` equals `event.time`. May schedule, cancel, or request a stop.
  mutating func handle(_ event: Event, scheduler: inout Scheduler)
}

/// Why ``Scheduler/run(until:handler:)`` returned.
public enum RunOutcome: Equatable, Sendable {
  /// The clock reached the end time (possibly with events still pending after it).
  case reachedEnd
  /// The handler called ``Scheduler/stop()``; the clock stays at the event that asked.
  case stopped
}

/// Simulated time and the pending events of one simulation: SimPy's environment, in one value.
public struct Scheduler: ~Copyable, Sendable {
  /// The current simulated time: the time of the event being handled, or where the last run ended.
  @inlinable public var now: SimTime { currentTime }
  @usableFromInline var currentTime: SimTime
  @usableFromInline var events: EventSet
  @usableFromInline var stopRequested = false
  /// Events handled since the scheduler was made.
  @inlinable public var handledEventCount: UInt64 { handledEvents }
  @usableFromInline var handledEvents: UInt64 = 0

  /// A scheduler at `start` with no pending events.
  public init(start: SimTime = .zero, capacity: Int = 64) {
    currentTime = start
    events = EventSet(capacity: capacity)
  }

  /// Number of pending events.
  @inlinable
  public var pendingCount: Int { events.count }

  /// Schedules an event at an absolute time, which must not be in the past.
  @inlinable
  @discardableResult
  public mutating func schedule(at time: SimTime, kind: EventKind, target: UInt32 = 0) -> EventHandle {
    precondition(time >= now, "scheduled an event at \(time), before the current time \(now)")
    return events.insert(at: time, kind: kind, target: target)
  }

  /// Schedules an event `delay` after now; a negative delay is a model bug and traps.
  @inlinable
  @discardableResult
  public mutating func schedule(after delay: SimDuration, kind: EventKind, target: UInt32 = 0) -> EventHandle {
    schedule(at: now + delay, kind: kind, target: target)
  }

  /// Cancels a pending event; `false` if it already ran or was cancelled.
  @discardableResult
  public mutating func cancel(_ handle: EventHandle) -> Bool {
    events.cancel(handle)
  }

  /// Cancels `handle` if pending and schedules a replacement at `time`.
  @discardableResult
  public mutating func supersede(
    _ handle: EventHandle, at time: SimTime, kind: EventKind, target: UInt32 = 0
  ) -> EventHandle {
    precondition(time >= now, "scheduled an event at \(time), before the current time \(now)")
    return events.supersede(handle, at: time, kind: kind, target: target)
  }

  /// Whether the event `handle` names is still pending.
  public func isPending(_ handle: EventHandle) -> Bool {
    events.isPending(handle)
  }

  /// Asks the running loop to return after the current event.
  public mutating func stop() {
    stopRequested = true
  }

  /// Runs events in `(time, sequence)` order over the half-open interval `[now, end)`.
  ///
  /// Boundary semantics (as SimPy's `run(until=)`): an event at exactly `end` does **not** run in this
  /// call; it stays pending and runs first in the next. When the loop ends because the next event is at
  /// or after `end` (or none is pending), the clock advances to `end`, so consecutive calls
  /// `run(until: day1)`, `run(until: day2)` partition time without gaps or double counting. Events the
  /// handler schedules at the current time run in this call, after those already scheduled for it.
  @inlinable
  public mutating func run<Handler: EventHandler>(until end: SimTime, handler: inout Handler) -> RunOutcome {
    precondition(end >= now, "run(until: \(end)) is before the current time \(now)")
    stopRequested = false
    while let time = events.nextTime(), time < end {
      guard let event = events.popNext() else { break }
      currentTime = time
      handledEvents &+= 1
      handler.handle(event, scheduler: &self)
      if stopRequested {
        stopRequested = false
        return .stopped
      }
    }
    currentTime = end
    return .reachedEnd
  }

  /// Runs the single next event, if any; returns it after the handler ran.
  @inlinable
  @discardableResult
  public mutating func step<Handler: EventHandler>(handler: inout Handler) -> Event? {
    guard let event = events.popNext() else { return nil }
    currentTime = event.time
    handledEvents &+= 1
    handler.handle(event, scheduler: &self)
    return event
  }
}
