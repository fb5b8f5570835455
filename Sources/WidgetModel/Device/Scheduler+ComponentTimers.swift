import Results
import SimulationEngine

/// The one place the components' timers become the device's events: each schedule a component asks for is
/// inserted into the device's event set at the point it is asked, so equal times keep their order. The
/// scheduler's own `now` and `cancel(_:)` are the ``DeviceClock``.
extension Scheduler: DeviceClock {}

extension Scheduler: UserTimers {
  @inline(__always)
  @discardableResult
  mutating func schedule(_ event: UserEvent, at time: SimTime) -> EventHandle {
    schedule(at: time, kind: event.eventKind)
  }
}

extension Scheduler: DisplayTimers {
  @inline(__always)
  @discardableResult
  mutating func schedule(_ event: DisplayEvent, at time: SimTime) -> EventHandle {
    schedule(at: time, kind: event.eventKind)
  }
}

extension Scheduler: AppTimers {
  @inline(__always)
  @discardableResult
  mutating func schedule(_ event: AppSessionEvent, at time: SimTime) -> EventHandle {
    schedule(at: time, kind: event.eventKind)
  }

  @inline(__always)
  @discardableResult
  mutating func schedule(_ event: AppRequestEvent, at time: SimTime) -> EventHandle {
    schedule(at: time, kind: event.eventKind)
  }
}

extension Scheduler: ProcessTimers {
  @inline(__always)
  @discardableResult
  mutating func scheduleFiring(of process: ProcessID, at time: SimTime) -> EventHandle {
    schedule(at: time, kind: ProcessEvent.fired.eventKind, target: process.eventTarget)
  }
}

extension Scheduler: DataTimers {
  @inline(__always)
  @discardableResult
  mutating func schedule(_ event: DataEvent, for target: UInt32, at time: SimTime) -> EventHandle {
    schedule(at: time, kind: event.eventKind, target: target)
  }
}

extension Scheduler: FleetTimers {
  @inline(__always)
  @discardableResult
  mutating func schedule(_ event: FleetWideEvent, for target: UInt32, at time: SimTime) -> EventHandle {
    schedule(at: time, kind: event.eventKind, target: target)
  }
}

extension Scheduler: ActivityTimers {
  @inline(__always)
  @discardableResult
  mutating func schedule(_ event: ActivityEvent, for target: UInt32, at time: SimTime) -> EventHandle {
    schedule(at: time, kind: event.eventKind, target: target)
  }

  @inline(__always)
  mutating func scheduleStart(_ kind: ActivityKindID, at time: SimTime) {
    schedule(at: time, kind: ActivityStartEvent.scheduled.eventKind, target: kind.eventTarget)
  }
}
