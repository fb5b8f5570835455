import ResultStorage

/// How the host app came to run, as `app_wakes.csv` names it.
public enum AppWakeChannel: Int, CaseIterable, Sendable {
  /// The user opened the app.
  case foreground
  /// An audio or navigation session started.
  case audioSession
  /// A Background App Refresh run (`BGAppRefreshTask`).
  case backgroundRefresh
  /// A background (silent) push.
  case silentPush
  /// `app.always_running`: the idealised app that learns of every change at once (no wakes, only fetches).
  case alwaysRunning

  public var name: String {
    switch self {
    case .foreground: "foreground"
    case .audioSession: "audio_session"
    case .backgroundRefresh: "background_refresh"
    case .silentPush: "silent_push"
    case .alwaysRunning: "always_running"
    }
  }

  /// `AppWakeChannel.allCases.count`, computed once.
  static let count = allCases.count
}

/// What became of one chance for the app to run: every background refresh the system considered and every
/// silent push sent gets exactly one (app opens and audio sessions are always `granted`).
public enum AppWakeOutcome: Int, CaseIterable, Sendable {
  /// The app ran at once (a silent push after its delivery delay).
  case granted
  /// A silent push held past the hourly or daily cap (or while the phone was off), then delivered.
  case deferred
  /// A held silent push replaced by a newer one (APNs keeps one per app), or still held at the end.
  case dropped
  /// The app ran, but its fetch passed the background time limit: nothing written, nothing reloaded.
  case expired
  /// Not run: Low Power Mode.
  case deniedLowPowerMode
  /// Not run: battery below `app.background_refresh.low_battery` and not charging.
  case deniedLowBattery
  /// Not run: the user force-quit the app and has not opened it since.
  case deniedForceQuit
  /// Not run: the user's Background App Refresh setting is off for the app.
  case deniedSettingOff
  /// Not run: the day's background refresh runs are used up.
  case deniedDailyBudget
  /// Not run: the user has not launched the app for `app.dormant_after` (a silent push is not delivered to
  /// it, background refresh does not run) [D: forums thread 776933; period A].
  case deniedDormant
  /// A silent push APNs never delivered (`system.silent_push.loss`).
  case lost

  /// The outcome column: `granted`, `deferred`, `dropped`, `expired`, `denied` or `lost`.
  public var outcome: String {
    switch self {
    case .granted: "granted"
    case .deferred: "deferred"
    case .dropped: "dropped"
    case .expired: "expired"
    case .deniedLowPowerMode, .deniedLowBattery, .deniedForceQuit, .deniedSettingOff, .deniedDailyBudget,
      .deniedDormant:
      "denied"
    case .lost: "lost"
    }
  }

  /// The reason column: why it was denied (or expired); empty otherwise.
  public var reason: String {
    switch self {
    case .granted, .deferred, .dropped, .lost: ""
    case .expired: "time_limit"
    case .deniedLowPowerMode: "low_power_mode"
    case .deniedLowBattery: "low_battery"
    case .deniedForceQuit: "force_quit"
    case .deniedSettingOff: "setting_off"
    case .deniedDailyBudget: "daily_budget"
    case .deniedDormant: "dormant"
    }
  }

  /// Whether the app ran (and fetched).
  public var ran: Bool { self == .granted || self == .deferred || self == .expired }

  /// `AppWakeOutcome.allCases.count`, computed once.
  static let count = allCases.count
}

extension ReplicationResult {
  /// The cell of a channel and outcome in ``AppWakeCounts``.
  static func appWakeCell(_ channel: AppWakeChannel, _ outcome: AppWakeOutcome) -> Int {
    appWakeCells.index(channel.rawValue, outcome.rawValue)
  }

  /// Counts one chance for the app to run, in the hour it arose (a push: the hour it was sent).
  package mutating func countAppWake(hourIndex: Int, _ channel: AppWakeChannel, _ outcome: AppWakeOutcome) {
    appWakes.add(hourIndex: hourIndex, cell: ReplicationResult.appWakeCell(channel, outcome))
  }

  /// App wakes of a channel with an outcome that arose in that hour, summed over devices.
  public func appWakeCount(day: Int, hour: Int, channel: AppWakeChannel, outcome: AppWakeOutcome) -> Int {
    Int(
      appWakes.count(
        hourIndex: ReplicationResult.hourIndex(day: day, hour: hour),
        cell: ReplicationResult.appWakeCell(channel, outcome)))
  }

  /// App wakes of a channel (and outcome; nil: any) over the run.
  public func appWakeTotal(channel: AppWakeChannel, outcome: AppWakeOutcome? = nil) -> Int {
    let totals = appWakeTotalsByChannel()[ReplicationResult.appWakeCells.cells(ofRow: channel.rawValue)]
    guard let outcome else { return totals.reduce(0, +) }
    return totals[ReplicationResult.appWakeCell(channel, outcome)]
  }

  /// App wakes over the run by channel and outcome (``appWakeCells``), every channel in one pass (a
  /// replication's summary reads several channels).
  public func appWakeTotalsByChannel() -> [Int] {
    appWakes.totals()
  }

  /// Fetches the app made on a channel over the run, and their bytes.
  public func appFetchCount(channel: AppWakeChannel) -> Int { appFetches[channel.rawValue] }
  public func appFetchBytes(channel: AppWakeChannel) -> Double { appFetchByteTotals[channel.rawValue].double }
}
