import Results
import SimulationEngine

/// A stretch of time during which the app is active (in the foreground, or playing audio): opened by
/// events, each of which may extend it, and closed by one pending end event.
struct AppSession {
  private(set) var until: SimTime?
  private var endEvent: EventHandle?
  let endKind: AppSessionEvent

  init(endKind: AppSessionEvent) {
    self.endKind = endKind
  }

  var isActive: Bool { until != nil }

  /// Keeps the session running at least `length` from now.
  mutating func extend(by length: SimDuration, _ timers: inout some AppTimers & ~Copyable) {
    let end = Swift.max(until ?? timers.now, timers.now + length)
    until = end
    if let endEvent { timers.cancel(endEvent) }
    endEvent = timers.schedule(endKind, at: end)
  }

  /// The end event ran.
  mutating func ended() {
    until = nil
    endEvent = nil
  }

  /// Ends the session now (the user swiped the app away).
  mutating func cut(_ timers: inout some AppTimers & ~Copyable) {
    if let endEvent { timers.cancel(endEvent) }
    ended()
  }
}

/// The app's process life (swift-nio style: one value, one `mutating` function per input).
enum AppLife: Equatable {
  /// Never launched since the phone started (or since the system reclaimed it).
  case notRunning
  /// In memory, not running: it cannot call `reloadTimelines` until something runs it.
  case suspended
  /// Launched in the background by a channel, for a task of limited length (about 30 s [D]).
  case background(AppWakeChannel)
  /// The user has it open.
  case foreground
  /// Swiped away in the App Switcher: no background launch until the user opens it again [D].
  case forceQuit
}

/// Whether the system still launches the app in the background: not once the user has not launched it
/// for `app.dormant_after` [D: forums thread 776933, "for a while"; period A]. It is a matter of time since
/// the last open, not a state an event enters, so it costs no event: the app is dormant from
/// `lastUserLaunch + dormantAfter` until the next open.
struct Dormancy: Equatable {
  /// How long after the last launch by the user the app becomes dormant; nil: never.
  let after: SimDuration?
  /// When the user last launched the app: a foreground open (an app open, a widget tap that opens it, a Live
  /// Activity started in the app). Background launches do not count: Apple's rule is about the user
  /// launching it, and an app its pushes kept alive would otherwise never go dormant [A]. The run starts
  /// with the app just installed and launched (time 0).
  private(set) var lastUserLaunch = SimTime.zero

  init(after: SimDuration?) {
    self.after = after
  }

  /// The user launched the app now.
  mutating func launched(at now: SimTime) {
    lastUserLaunch = now
  }

  /// Whether the app, not running now, is past `after` since the user last launched it.
  func isDormant(at now: SimTime) -> Bool {
    guard let after else { return false }
    return now - lastUserLaunch >= after
  }
}

/// Whether a channel may run the app now.
enum AppLaunch: Equatable {
  /// It runs: fetch, write the store, reload with this cause.
  case run(ReloadCause)
  /// It does not.
  case denied(AppWakeOutcome)
}

/// What the content of one widget kind in the App Group store (or on screen) reflects.
enum Freshness: Equatable {
  /// The latest data.
  case current
  /// The data changed at `since` and this does not show it yet.
  case behind(since: SimTime)

  /// The data changed at `now`: something current falls behind (something behind stays behind since its
  /// first missed change).
  mutating func dataChanged(at now: SimTime) {
    if self == .current { self = .behind(since: now) }
  }
}

/// The host app's process: its life (``AppLife``), its foreground and audio sessions, and the App Group
/// store it writes (per widget kind, the data it last fetched). Owns the `appClose` and `audioEnd` events.
///
/// The app learns of a data change only while it runs: in the foreground or an audio session at once, in
/// the background when a channel launches it (``launch(_:)``), and always under `app.always_running`.
struct AppProcess {
  private(set) var life = AppLife.notRunning
  var foreground = AppSession(endKind: .close)
  var audio = AppSession(endKind: .audioEnd)
  /// Per widget kind: what the App Group store holds.
  private(set) var store: [Freshness]
  /// Reload requests reaching WidgetKit before then are ignored (after an open from a widget tap [O]).
  private(set) var ignoreReloadsUntil = SimTime(microseconds: Int64.min / 4)
  /// Whether the user has launched the app recently enough for background launches.
  private(set) var dormancy: Dormancy
  let alwaysRunning: Bool
  let backgroundReloadsBudgeted: Bool
  let sessionLength: RandomStream
  let audioSessionLength: RandomStream
  /// Whether an open came from a widget tap.
  let widgetOpens: RandomStream
  /// The app's fetches (bytes and CPU).
  let fetch: RandomStream

  init(kinds: Int, settings: AppConfiguration, streams: AppStreams) {
    store = Array(repeating: .current, count: kinds)
    dormancy = Dormancy(after: settings.dormantAfter)
    alwaysRunning = settings.alwaysRunning
    backgroundReloadsBudgeted = settings.backgroundReloads != .exempt
    sessionLength = streams.sessionLength
    audioSessionLength = streams.audioSessionLength
    widgetOpens = streams.widgetOpens
    fetch = streams.fetch
  }

  /// The user opens the app for a session drawn from `length`; with probability `widgetShare` from a widget
  /// tap, after which reload requests are ignored for `ignoreWindow`.
  /// Returns whether the open came from a tap on one of the app's widgets.
  @discardableResult
  mutating func opened(
    length: Distribution, widgetShare: Double, ignoreWindow: SimDuration, _ timers: inout some AppTimers & ~Copyable
  ) -> Bool {
    life = .foreground
    dormancy.launched(at: timers.now)
    foreground.extend(by: SimDuration(seconds: Swift.max(0, length.sample(sessionLength))), &timers)
    guard widgetOpens.bernoulli(widgetShare) else { return false }
    ignoreReloadsUntil = timers.now + ignoreWindow
    return true
  }

  /// An audio or navigation session starts, for a length drawn from `length`.
  mutating func audioStarted(length: Distribution, _ timers: inout some AppTimers & ~Copyable) {
    audio.extend(by: SimDuration(seconds: Swift.max(0, length.sample(audioSessionLength))), &timers)
  }

  /// The app's own events: the foreground session ends (the app is suspended), the audio session ends.
  mutating func handle(_ event: AppSessionEvent) {
    switch event {
    case .close:
      foreground.ended()
      if life == .foreground { life = .suspended }
    case .audioEnd: audio.ended()
    }
  }

  /// The user swipes the app away: it leaves the foreground and stays dead to background launches.
  mutating func forceQuit(_ timers: inout some AppTimers & ~Copyable) {
    foreground.cut(&timers)
    audio.cut(&timers)
    life = .forceQuit
  }

  /// A channel asks to run the app in the background now. The app already running in the foreground or an
  /// audio session takes it there (its reloads are exempt); one the user has not launched for
  /// `app.dormant_after` is not launched.
  mutating func launch(_ channel: AppWakeChannel, at now: SimTime) -> AppLaunch {
    switch life {
    case .forceQuit:
      return .denied(.deniedForceQuit)
    case .foreground:
      return .run(.appForeground)
    case .notRunning, .suspended, .background:
      if audio.isActive { return .run(.audioSession) }
      if dormancy.isDormant(at: now) { return .denied(.deniedDormant) }
      life = .background(channel)
      return .run(channel.wake.reloadCause)
    }
  }

  /// The background task ended (its fetch done, or cut at the time limit).
  mutating func backgroundTaskEnded() {
    if case .background = life { life = .suspended }
  }

  /// How the app, running now, learns of a change: in the foreground, in an audio session, or (only under
  /// `always_running`) from the background; nil when it is not running and must wait for a channel.
  var runningChannel: AppWakeChannel? {
    if life == .foreground { return .foreground }
    if audio.isActive { return .audioSession }
    return alwaysRunning ? .alwaysRunning : nil
  }

  /// The data of kind `index` changed on the server: the store falls behind.
  mutating func dataChanged(kind index: Int, at now: SimTime) {
    store[index].dataChanged(at: now)
  }

  /// The app fetched: the store holds the latest data of every kind. Returns, per kind, whether it was
  /// behind (what the app found new) through `changed`.
  mutating func wroteStore(_ changed: inout [Bool]) {
    for index in store.indices {
      changed[index] = store[index] != .current
      store[index] = .current
    }
  }

  /// Whether the system refuses to launch the app in the background now: the user has not launched it for
  /// `app.dormant_after`, and it is not running (in the foreground or an audio session), where a channel
  /// finds it without a launch.
  func isDormant(at now: SimTime) -> Bool {
    life != .foreground && !audio.isActive && dormancy.isDormant(at: now)
  }

  /// Whether the app is in the foreground (a build then needs no wake-up of its own).
  var isForeground: Bool { life == .foreground }
}

/// The app's random streams.
struct AppStreams {
  let sessionLength: RandomStream
  let audioSessionLength: RandomStream
  let widgetOpens: RandomStream
  let fetch: RandomStream
}
