import SimulationEngine

@testable import Results
@testable import WidgetModel

/// The timers a component asked for, in order: it stands in for the device's scheduler when a test drives
/// a component input by input. A scheduler of its own only mints the handles a component keeps to cancel.
struct TimerLog: ~Copyable, DeviceClock {
  /// One timer asked for: an event of the component's scheduled for a target at a time, or a pending one
  /// cancelled.
  enum Entry: Equatable, CustomStringConvertible {
    case scheduled(EventKind, target: UInt32, at: SimTime)
    case cancelled(EventKind, target: UInt32)

    var description: String {
      switch self {
      case .scheduled(let kind, let target, let time): "schedule \(kind) for \(target) at \(time)"
      case .cancelled(let kind, let target): "cancel \(kind) for \(target)"
      }
    }
  }

  /// The clock the component reads; a test moves it between inputs.
  var now: SimTime
  private(set) var entries: [Entry] = []
  private var handles = Scheduler()
  private var pending: [EventHandle: (kind: EventKind, target: UInt32)] = [:]

  init(now: SimTime = .zero) {
    self.now = now
  }

  /// The entries logged since the last call, which a test checks input by input.
  mutating func take() -> [Entry] {
    defer { entries.removeAll() }
    return entries
  }

  @discardableResult
  mutating func log(_ kind: EventKind, target: UInt32, at time: SimTime) -> EventHandle {
    precondition(time >= now, "a component scheduled \(kind) at \(time), before now (\(now))")
    entries.append(.scheduled(kind, target: target, at: time))
    let handle = handles.schedule(at: .zero, kind: kind, target: target)
    pending[handle] = (kind, target)
    return handle
  }

  @discardableResult
  mutating func cancel(_ handle: EventHandle) -> Bool {
    guard let event = pending.removeValue(forKey: handle) else { return false }
    entries.append(.cancelled(event.kind, target: event.target))
    return true
  }
}

extension TimerLog: UserTimers, DisplayTimers, AppTimers, ProcessTimers, DataTimers, FleetTimers {
  @discardableResult
  mutating func schedule(_ event: UserEvent, at time: SimTime) -> EventHandle {
    log(event.eventKind, target: 0, at: time)
  }

  @discardableResult
  mutating func schedule(_ event: DisplayEvent, at time: SimTime) -> EventHandle {
    log(event.eventKind, target: 0, at: time)
  }

  @discardableResult
  mutating func schedule(_ event: AppSessionEvent, at time: SimTime) -> EventHandle {
    log(event.eventKind, target: 0, at: time)
  }

  @discardableResult
  mutating func schedule(_ event: AppRequestEvent, at time: SimTime) -> EventHandle {
    log(event.eventKind, target: 0, at: time)
  }

  @discardableResult
  mutating func scheduleFiring(of process: ProcessID, at time: SimTime) -> EventHandle {
    log(ProcessEvent.fired.eventKind, target: process.eventTarget, at: time)
  }

  @discardableResult
  mutating func schedule(_ event: DataEvent, for target: UInt32, at time: SimTime) -> EventHandle {
    log(event.eventKind, target: target, at: time)
  }

  @discardableResult
  mutating func schedule(_ event: FleetWideEvent, for target: UInt32, at time: SimTime) -> EventHandle {
    log(event.eventKind, target: target, at: time)
  }
}

extension TimerLog: ActivityTimers {
  @discardableResult
  mutating func schedule(_ event: ActivityEvent, for target: UInt32, at time: SimTime) -> EventHandle {
    log(event.eventKind, target: target, at: time)
  }

  mutating func scheduleStart(_ kind: ActivityKindID, at time: SimTime) {
    log(ActivityStartEvent.scheduled.eventKind, target: kind.eventTarget, at: time)
  }
}

extension TimerLog.Entry {
  /// An owner's event scheduled for `target` at `time`, as a test writes it.
  static func schedule(_ event: some DeviceEventCase, _ target: UInt32, at time: SimTime) -> Self {
    .scheduled(event.eventKind, target: target, at: time)
  }

  /// An owner's pending event for `target` cancelled, as a test writes it.
  static func cancel(_ event: some DeviceEventCase, _ target: UInt32) -> Self {
    .cancelled(event.eventKind, target: target)
  }
}
