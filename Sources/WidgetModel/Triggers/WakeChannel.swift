import Results

/// What limits how often a wake channel runs the app.
public enum WakeCaps: Sendable, Equatable {
  /// Nothing: the user opens the app, an audio session starts, or the idealised app never sleeps.
  case none
  /// The system's daily runs and its conditions (`app.background_refresh`).
  case dailyBudget
  /// A push's hourly and daily delivery caps and its delay (the push kind's `caps` section).
  case pushLimits
}

/// One row of the wake-channel table: how the app came to run, what its run may take, what it reloads with,
/// and where the reports, the trace and the field log show it.
public struct WakeChannelRow: Sendable {
  public let channel: AppWakeChannel
  /// Whether the run is a background launch: cut at `app.background_time_limit` (nothing written, nothing
  /// reloaded past it) unless the app is in the foreground, and one the system may deny (its denials are
  /// counted, `app_wake_denials_per_day_...`).
  public let backgroundTimeLimit: Bool
  /// The cause of the reloads the app asks for on it.
  public let reloadCause: ReloadCause
  /// Its column in `server_load.csv` for the app's fetch.
  public let fetchSource: ServerSource
  /// The push the server sends to raise it; nil: no push raises it.
  public let push: PushKind?
  /// The field-log line a launch on it writes when no push raises it; nil: none, or its push's delivery line
  /// (``fieldRecord``).
  let launchRecord: FieldEvent?
  /// What limits how often it runs the app.
  public let caps: WakeCaps
}

extension WakeChannelRow {
  /// The server's source for the push it is raised by (nil: none).
  public var sendSource: ServerSource? { push?.row.serverSource }
  /// Its topic in a device's trace (nil: no push raises it).
  public var traceTopic: StaticString? { push?.row.traceTopic }
  /// The field-log line a launch on it writes: its push's delivery (``FieldEvent/delivered(_:)``), or its own
  /// line; nil: it writes none here (an app open logs itself when the app comes to the foreground; an audio
  /// session and the idealised app log nothing).
  public var fieldRecord: FieldEvent? { push.map(FieldEvent.delivered) ?? launchRecord }
  /// What waking for its push is booked under (nil: no push raises it; the app's own fetch is `app_cpu`
  /// and `app_network` on every channel).
  public var energy: EnergyComponent? { push?.row.energy }
}

extension AppWakeChannel {
  /// The wake-channel table: every way the app comes to run, listed once. The app process reads its reload
  /// cause, the device its time limit, fetch source and field record, the summary which channels can be
  /// denied (`WakeChannelTableTests`). Adding a channel: a case in `AppWakeChannel` with its server source,
  /// a row here, and the component that launches the app on it.
  public var wake: WakeChannelRow {
    switch self {
    case .foreground:
      WakeChannelRow(
        channel: self, backgroundTimeLimit: false, reloadCause: .appForeground, fetchSource: .appFetchForeground,
        push: nil, launchRecord: nil, caps: .none)
    case .audioSession:
      WakeChannelRow(
        channel: self, backgroundTimeLimit: false, reloadCause: .audioSession, fetchSource: .appFetchAudioSession,
        push: nil, launchRecord: nil, caps: .none)
    case .backgroundRefresh:
      WakeChannelRow(
        channel: self, backgroundTimeLimit: true, reloadCause: .backgroundRefresh,
        fetchSource: .appFetchBackgroundRefresh, push: nil, launchRecord: .backgroundRefresh, caps: .dailyBudget)
    case .silentPush:
      WakeChannelRow(
        channel: self, backgroundTimeLimit: true, reloadCause: .silentPush, fetchSource: .appFetchSilentPush,
        push: .silent, launchRecord: nil, caps: .pushLimits)
    case .alwaysRunning:
      WakeChannelRow(
        channel: self, backgroundTimeLimit: false, reloadCause: .appReload, fetchSource: .appFetchAlwaysRunning,
        push: nil, launchRecord: nil, caps: .none)
    }
  }
}
