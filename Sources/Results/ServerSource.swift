/// Where a request to the app's servers comes from: the widget's own fetch, the app's fetch by the channel
/// that ran it, a push by type (a broadcast channel's update: one request for the whole fleet), or a Live
/// Activity's push-token registration.
public enum ServerSource: Int, CaseIterable, Sendable {
  case widgetFetch
  case appFetchForeground
  case appFetchAudioSession
  case appFetchBackgroundRefresh
  case appFetchSilentPush
  case appFetchAlwaysRunning
  case widgetPush
  case silentPush
  case activityPush
  case broadcast
  case tokenRegistration

  /// The column in `server_load.csv`.
  public var name: String {
    switch self {
    case .widgetFetch: "widget_fetches"
    case .appFetchForeground: "app_fetches_foreground"
    case .appFetchAudioSession: "app_fetches_audio_session"
    case .appFetchBackgroundRefresh: "app_fetches_background_refresh"
    case .appFetchSilentPush: "app_fetches_silent_push"
    case .appFetchAlwaysRunning: "app_fetches_always_running"
    case .widgetPush: "widget_pushes_sent"
    case .silentPush: "silent_pushes_sent"
    case .activityPush: "activity_pushes_sent"
    case .broadcast: "broadcast_requests"
    case .tokenRegistration: "token_registrations"
    }
  }

  /// How `summary.csv` names its stream (``ServerStream/source(_:)``, in the `widget` column of the
  /// provisioning metrics).
  public var streamName: String {
    switch self {
    case .widgetFetch: "widget_fetch"
    case .appFetchForeground: "app_fetch_foreground"
    case .appFetchAudioSession: "app_fetch_audio_session"
    case .appFetchBackgroundRefresh: "app_fetch_background_refresh"
    case .appFetchSilentPush: "app_fetch_silent_push"
    case .appFetchAlwaysRunning: "app_fetch_always_running"
    case .widgetPush: "widget_push"
    case .silentPush: "silent_push"
    case .activityPush: "activity_push"
    case .broadcast: "broadcast"
    case .tokenRegistration: "token_registration"
    }
  }

  /// Whether it is a fetch (the widget's, or the app's on a wake channel).
  public var isFetch: Bool {
    switch self {
    case .widgetFetch, .appFetchForeground, .appFetchAudioSession, .appFetchBackgroundRefresh, .appFetchSilentPush,
      .appFetchAlwaysRunning:
      true
    case .widgetPush, .silentPush, .activityPush, .broadcast, .tokenRegistration: false
    }
  }
  /// Whether it is a push sent (per device, or a channel's broadcast).
  public var isPush: Bool { !isFetch && self != .tokenRegistration }
  /// Whether one request serves the whole fleet (a broadcast channel's update): counted once per
  /// replication, never scaled by `fleet.represents`.
  public var isFleetWide: Bool { self == .broadcast }

  /// `ServerSource.allCases.count`, computed once.
  @usableFromInline static let count = allCases.count
}
