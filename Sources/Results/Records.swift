import SimulationEngine

/// What became of pushes: every push sent is counted as sent, and once more as delivered, superseded or
/// throttled (unless still pending when the simulation ends).
public enum PushCounter: Int, CaseIterable, Sendable {
  case sent
  case delivered
  /// Replaced by a newer push to the same topic before delivery (APNs keeps one), or discarded because its
  /// Live Activity ended first.
  case superseded
  /// Over the push budget: dropped.
  case throttled
  /// Never delivered: a broadcast channel without storage sent it while the phone was off.
  case lost

  public var name: String {
    switch self {
    case .sent: "sent"
    case .delivered: "delivered"
    case .superseded: "superseded"
    case .throttled: "throttled"
    case .lost: "lost"
    }
  }

  static var count: Int { 5 }
}

/// Why a Live Activity's start was refused.
public enum ActivityRejection: Sendable, Equatable {
  /// Too many of the app's activities running at once.
  case cap
  /// Too many activities on the device (`globalMaximumExceeded` [D]).
  case deviceCap
  /// A push-to-start beyond its budget.
  case pushBudget
  /// The app asked while not in the foreground (`visibility` [D]).
  case visibility

  /// The ending a refused start is counted under.
  package var ending: ActivityEnding {
    switch self {
    case .cap: .rejectedCap
    case .deviceCap: .rejectedDeviceCap
    case .pushBudget: .rejectedPushBudget
    case .visibility: .rejectedVisibility
    }
  }
}

/// One attempt to start a Live Activity and, if it started, its life.
public struct ActivityRecord: Sendable {
  /// The Live Activity kind.
  public let kind: ActivityKindID
  /// `id#n`: the n-th start attempt of that kind.
  public let label: String
  public package(set) var startTime: SimTime
  /// Why the start was refused, if it was.
  public package(set) var rejection: ActivityRejection?
  public package(set) var updatesSent = 0
  public package(set) var updatesDelivered = 0
  public package(set) var updatesThrottled = 0
  public package(set) var updatesSuperseded = 0
  /// Broadcast updates a switched-off phone missed from a channel without storage.
  public package(set) var updatesLost = 0
  /// Delivered updates whose rendering passed the memory ceiling (the old content stays).
  public package(set) var updatesJetsam = 0
  /// How it ended; `running` if it was still active when the simulation ended.
  public package(set) var ending = ActivityEnding.running
  public package(set) var endTime: SimTime?
  /// When it left the Lock Screen; nil if it was still there at the end.
  public package(set) var dismissTime: SimTime?

  package init(kind: ActivityKindID, label: String, startTime: SimTime) {
    self.kind = kind
    self.label = label
    self.startTime = startTime
  }

  /// The record on a clock that starts `shift` later (after a warm-up).
  package func shifted(back shift: SimDuration) -> ActivityRecord {
    var moved = self
    moved.startTime = startTime - shift
    moved.endTime = endTime.map { $0 - shift }
    moved.dismissTime = dismissTime.map { $0 - shift }
    return moved
  }

  /// Seconds active, up to `end` (the end of the simulation) when still running.
  public func activeSeconds(simulationEnd end: SimTime) -> Double {
    guard rejection == nil else { return 0 }
    return ((endTime ?? end) - startTime).seconds
  }

  /// Seconds on the Lock Screen after it ended.
  public func lockScreenSeconds(simulationEnd end: SimTime) -> Double {
    guard rejection == nil, let endTime else { return 0 }
    return ((dismissTime ?? end) - endTime).seconds
  }
}

/// One reload that ran (or a request that failed as `stuck` without building): when, for which request, of
/// which instance, why and how it was granted.
public struct ReloadRecord: Sendable, Equatable {
  public let time: SimTime
  public let requestTime: SimTime
  public let instance: InstanceID
  public let cause: ReloadCause
  public let outcome: ReloadOutcome

  package init(time: SimTime, requestTime: SimTime, instance: InstanceID, cause: ReloadCause, outcome: ReloadOutcome) {
    self.time = time
    self.requestTime = requestTime
    self.instance = instance
    self.cause = cause
    self.outcome = outcome
  }

  /// The record on a clock that starts `shift` later (after a warm-up); nil if it ran before then.
  package func shifted(back shift: SimDuration) -> ReloadRecord? {
    guard time >= .zero + shift else { return nil }
    return ReloadRecord(
      time: time - shift, requestTime: requestTime - shift, instance: instance, cause: cause, outcome: outcome)
  }
}

/// One thing that happened to the host app, in traced runs (tests and diagnostics): an open, a force-quit,
/// or a background launch a channel asked for and its outcome.
public struct AppRecord: Sendable, Equatable {
  public enum Event: Sendable, Equatable {
    case opened
    case forceQuit
    case launch(AppWakeChannel, AppWakeOutcome)
  }

  public let time: SimTime
  public let event: Event

  package init(time: SimTime, event: Event) {
    self.time = time
    self.event = event
  }

  /// The record on a clock that starts `shift` later (after a warm-up); nil if it happened before then.
  package func shifted(back shift: SimDuration) -> AppRecord? {
    time >= .zero + shift ? AppRecord(time: time - shift, event: event) : nil
  }
}
