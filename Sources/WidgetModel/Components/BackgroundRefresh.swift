import Results
import SimulationEngine

/// The app's Background App Refresh task (`BGAppRefreshTask`) on this device: the request the app
/// submitted, when the system will consider it, and how often the user opens the app (the usage the
/// system grants runs from). Owns the `backgroundRefresh` event.
///
/// The rule (ours [A], every factor a key; see ``BackgroundRefreshConfiguration``): a request submitted at
/// `t` is considered at `t + interval + lateness`, lateness exponential with mean
/// `delay × max(1, reference_opens / opens per day over the last 7 days)`, the 7 days the 168 hours before
/// `t` (before the run's start, the expected opens per day stand for the part of the window not yet run). A consideration the conditions
/// deny is counted with its reason and considered again one lateness later; a force-quit, or the app gone
/// dormant (not launched by the user for `app.dormant_after` [D, staff: forums thread 776933]), ends the
/// request until the next open submits a new one.
struct BackgroundRefresh {
  let settings: BackgroundRefreshConfiguration
  /// Whether the user's Background App Refresh setting is on for the app on this device.
  let settingOn: Bool
  private var pending: EventHandle?
  /// The app's opens in the last 7 days, oldest first from `oldestOpen` (older ones are let go in place, the
  /// array compacted now and then: no allocation once it holds a week of opens), and the expected opens per
  /// day, which stand for the part of the window before the run started.
  private var recentOpens: [SimTime] = []
  private var oldestOpen = 0
  private let expectedOpensPerDay: Double
  /// Runs granted on the current clock day.
  private var runsToday = 0.0
  private var runsDay = 0
  let stream: RandomStream

  init(settings: BackgroundRefreshConfiguration, expectedOpensPerDay: Double, stream: RandomStream, setting: Bool) {
    self.settings = settings
    self.stream = stream
    settingOn = setting
    self.expectedOpensPerDay = expectedOpensPerDay
  }

  /// The window the usage counts opens over.
  static let window = SimDuration.days(7)

  /// The user opened the app.
  mutating func opened(at now: SimTime) {
    recentOpens.append(now)
    // Let go of what the window has passed here too, so opens do not pile up while no request asks.
    forget(before: now - BackgroundRefresh.window)
  }

  /// Lets go of the opens at or before `from`, compacting the array now and then.
  private mutating func forget(before from: SimTime) {
    while oldestOpen < recentOpens.count && recentOpens[oldestOpen] <= from { oldestOpen += 1 }
    if oldestOpen > 64 && oldestOpen * 2 > recentOpens.count {
      recentOpens.removeFirst(oldestOpen)
      oldestOpen = 0
    }
  }

  /// Opens per day over the 168 hours before `now`; the part of them before the run's start (time zero)
  /// counts the expected opens per day.
  mutating func opensPerDay(at now: SimTime) -> Double {
    let from = now - BackgroundRefresh.window
    forget(before: from)
    let unseen = Swift.max(0, (SimTime.zero - from).seconds) / 86_400
    return (Double(recentOpens.count - oldestOpen) + expectedOpensPerDay * unseen) / 7
  }

  /// The lateness past the earliest date, drawn for the app's recent usage.
  private mutating func lateness(at now: SimTime) -> SimDuration {
    let usage = opensPerDay(at: now)
    let factor = usage > 0 ? Swift.max(1, settings.referenceOpensPerDay / usage) : 1e6
    return SimDuration(seconds: stream.exponential(mean: settings.delay.seconds * factor))
  }

  /// The app submits its request (after a run, or on leaving the foreground): the system will consider it
  /// `interval` plus a lateness from now. With the user's setting off the submission fails (counted).
  mutating func submit(_ timers: inout some AppTimers & ~Copyable, _ result: inout some AppWakeRecording) {
    guard settings.enabled else { return }
    let now = timers.now
    guard settingOn else {
      result.countAppWake(hourIndex: now.hourIndex, .backgroundRefresh, .deniedSettingOff)
      return
    }
    if let pending { timers.cancel(pending) }
    var earliest = now + settings.interval
    if let window = settings.activeWindow, !window.contains(earliest) { earliest = window.from.next(after: now) }
    pending = timers.schedule(AppRequestEvent.backgroundRefresh, at: earliest + lateness(at: now))
  }

  /// The system considers the request now. Returns the outcome of the conditions; a denied request (other
  /// than after a force-quit or for a dormant app) is considered again later.
  mutating func consider(
    forceQuit: Bool, dormant: Bool, lowPowerMode: Bool, stateOfCharge: Double, charging: Bool,
    _ timers: inout some AppTimers & ~Copyable
  ) -> AppWakeOutcome {
    pending = nil
    let now = timers.now
    if runsDay != now.dayIndex {
      runsDay = now.dayIndex
      runsToday = 0
    }
    let outcome: AppWakeOutcome
    if forceQuit {
      outcome = .deniedForceQuit
    } else if dormant {
      outcome = .deniedDormant
    } else if lowPowerMode {
      outcome = .deniedLowPowerMode
    } else if stateOfCharge < settings.lowBattery && !charging {
      outcome = .deniedLowBattery
    } else if runsToday >= settings.perDay {
      outcome = .deniedDailyBudget
    } else {
      runsToday += 1
      return .granted
    }
    if outcome != .deniedForceQuit && outcome != .deniedDormant {
      pending = timers.schedule(AppRequestEvent.backgroundRefresh, at: now + lateness(at: now))
    }
    return outcome
  }

  /// The consideration fell while the app is in the foreground: nothing to do; leaving the foreground
  /// submits a new request.
  mutating func skipped() {
    pending = nil
  }

  /// The phone is off: nothing is considered; the request is looked at again one lateness later.
  mutating func postpone(_ timers: inout some AppTimers & ~Copyable) {
    let now = timers.now
    pending = timers.schedule(AppRequestEvent.backgroundRefresh, at: now + lateness(at: now))
  }

  /// Whether a request is submitted and waits.
  var isPending: Bool { pending != nil }
}
