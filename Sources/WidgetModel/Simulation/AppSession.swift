import SimulationEngine

/// A stretch of time during which the app is active (in the foreground, or playing audio): opened by
/// events, each of which may extend it, and closed by one pending end event.
struct AppSession {
  private(set) var until: SimTime?
  private var endEvent: EventHandle?
  let endKind: DeviceEventKind

  init(endKind: DeviceEventKind) {
    self.endKind = endKind
  }

  var isActive: Bool { until != nil }

  /// Keeps the session running at least `length` from now.
  mutating func extend(by length: SimDuration, _ scheduler: inout Scheduler) {
    let end = Swift.max(until ?? scheduler.now, scheduler.now + length)
    until = end
    if let endEvent { scheduler.cancel(endEvent) }
    endEvent = scheduler.schedule(at: end, kind: endKind.eventKind)
  }

  /// The end event ran.
  mutating func ended() {
    until = nil
    endEvent = nil
  }
}
