import SimulationEngine

/// The one place the components' timers become the device's events: each schedule a component asks for is
/// inserted into the device's event set at the point it is asked, so equal times keep their order.
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
