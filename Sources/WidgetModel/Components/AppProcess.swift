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

/// The host app's process as far as widgets see it: in the foreground after the user opens it, and running
/// an audio or navigation session. It owns the `appClose` and `audioEnd` events.
///
/// This is the seam for the app's own life cycle (not running, suspended, running in the background,
/// foreground, force-quit) and the wake channels that run it (background refresh, silent push): they
/// replace ``reloadCause`` with a state machine that decides whether, when and with which cause the app
/// learns of a data change. Today the app reacts to every change at once.
struct AppProcess {
  var foreground = AppSession(endKind: .appClose)
  var audio = AppSession(endKind: .audioEnd)
  let sessionLength: RandomStream
  let audioSessionLength: RandomStream

  /// The user opens the app for a session drawn from `length`.
  mutating func opened(length: Distribution, _ scheduler: inout Scheduler) {
    foreground.extend(by: SimDuration(seconds: Swift.max(0, length.sample(sessionLength))), &scheduler)
  }

  /// An audio or navigation session starts, for a length drawn from `length`.
  mutating func audioStarted(length: Distribution, _ scheduler: inout Scheduler) {
    audio.extend(by: SimDuration(seconds: Swift.max(0, length.sample(audioSessionLength))), &scheduler)
  }

  /// The app's own events.
  mutating func handle(_ kind: DeviceEventKind) {
    switch kind {
    case .appClose: foreground.ended()
    case .audioEnd: audio.ended()
    default: preconditionFailure("\(kind) is not the app's event")
    }
  }

  /// How the app's reload on a data change counts: exempt in the foreground or an audio session, else a
  /// budgeted reload from the background.
  var reloadCause: ReloadCause {
    foreground.isActive ? .appForeground : (audio.isActive ? .audioSession : .appReload)
  }

  /// Whether the app is in the foreground (a build then needs no wake-up of its own).
  var isForeground: Bool { foreground.isActive }
}
