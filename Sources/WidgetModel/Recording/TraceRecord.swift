import Results
import SimulationEngine

/// A radio's state while it works for a transfer: promotion to the connected state, the transfer itself, and
/// the tail it stays connected for afterwards (see ``RadioState``).
public enum RadioPhase: Int, CaseIterable, Sendable {
  case promotion
  case active
  case tail

  public var name: String {
    switch self {
    case .promotion: "promotion"
    case .active: "active"
    case .tail: "tail"
    }
  }
}

/// What a widget instance shows from the moment it changes: the placeholder, the latest data, or data that
/// has been out of date for `age` (behind since `age` before the record's time, older by the time elapsed
/// since). An age rather than a date, so that the record means the same on a clock shifted past a warm-up.
public enum TraceContent: Sendable, Equatable {
  case placeholder
  case current
  case behind(age: SimDuration)

  public var name: String {
    switch self {
    case .placeholder: "placeholder"
    case .current: "current"
    case .behind: "behind"
    }
  }

  /// The same content `elapsed` later, with no change in between.
  func aged(by elapsed: SimDuration) -> TraceContent {
    if case .behind(let age) = self { return .behind(age: age + elapsed) }
    return self
  }
}

/// What a traced device's timeline shows: one thing that happened, or one stretch of a state.
public enum TraceEvent: Sendable, Equatable {
  /// The user saw a widget instance; `staleness`: the age of the data it showed (nil: the placeholder).
  case view(InstanceID, WidgetPlacement, staleness: SimDuration?)
  /// The server's data of a kind (its index in ``ScenarioConfiguration/kinds``) changed.
  case dataChange(kind: Int)
  /// The user opened the app.
  case appOpen
  /// A stretch with the app in the foreground (a span).
  case appForeground
  /// The user swiped the app away.
  case forceQuit
  /// A chance for the app to run: an audio session, a Background App Refresh run, a silent push's launch.
  case appWake(AppWakeChannel, AppWakeOutcome)
  /// A request to reload an instance, at the time it was made, with its final outcome (the span lasts until
  /// it ended: built, or counted).
  case reloadRequest(InstanceID, ReloadCause, ReloadOutcome)
  /// A reload that ran (a build, or a `stuck` request), for the request's cause.
  case reload(InstanceID, ReloadCause, ReloadOutcome)
  /// What an instance shows changed: a data change left it behind, or a reload (or a build that ran out of
  /// time) showed other content. Recorded only when it changes.
  case content(InstanceID, TraceContent)
  /// A push of a kind sent by the server, or delivered to the device (its topic: ``PushKindRow/traceTopic``).
  case push(PushKind, PushCounter)
  /// A radio in one phase of its state machine (a span).
  case radio(NetworkKind, RadioPhase)
  /// Low Power Mode on (a span).
  case lowPowerMode
  /// On the charger (a span).
  case charging
  /// Switched off after the battery ran flat (a span).
  case poweredOff
  /// The battery's state of charge (0...1): at the start and at the end of every hour.
  case battery(stateOfCharge: Double)
}

/// One row of a device's trace: when it happened, how long it lasted (spans only), and what it was.
public struct TraceRecord: Sendable, Equatable {
  public internal(set) var time: SimTime
  /// The span's length; nil for an instant.
  public internal(set) var duration: SimDuration?
  public let event: TraceEvent

  public init(time: SimTime, duration: SimDuration? = nil, event: TraceEvent) {
    self.time = time
    self.duration = duration
    self.event = event
  }

  /// The record on a clock that starts at `start` (after a warm-up): a span is clipped to `start..<stop`
  /// (a transfer queued at the end runs past it); nil for anything over before `start` or begun after `stop`.
  func shifted(from start: SimTime, to stop: SimTime) -> TraceRecord? {
    let shift = start - SimTime.zero
    guard let duration else { return time >= start ? TraceRecord(time: time - shift, event: event) : nil }
    guard time <= stop else { return nil }
    let end = Swift.min(time + duration, stop)
    guard end > start || (duration == .zero && time >= start) else { return nil }
    let begin = Swift.max(time, start)
    return TraceRecord(time: begin - shift, duration: end - begin, event: event)
  }
}
