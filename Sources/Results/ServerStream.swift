/// The request streams a provisioning figure is given for: widget fetches, the app's fetches (all, and by the
/// wake channel that ran it), pushes by type, a broadcast channel's updates, Live Activity token
/// registrations. Each is one or more ``ServerSource``s.
public enum ServerStream: Int, CaseIterable, Sendable {
  case widgetFetch
  case appFetch
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

  /// How `summary.csv` names it (in the `widget` column of the provisioning metrics).
  public var name: String {
    switch self {
    case .widgetFetch: "widget_fetch"
    case .appFetch: "app_fetch"
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

  /// The sources it counts.
  public var sources: [ServerSource] {
    switch self {
    case .widgetFetch: [.widgetFetch]
    case .appFetch: ServerStream.appFetchSources
    case .appFetchForeground: [.appFetchForeground]
    case .appFetchAudioSession: [.appFetchAudioSession]
    case .appFetchBackgroundRefresh: [.appFetchBackgroundRefresh]
    case .appFetchSilentPush: [.appFetchSilentPush]
    case .appFetchAlwaysRunning: [.appFetchAlwaysRunning]
    case .widgetPush: [.widgetPush]
    case .silentPush: [.silentPush]
    case .activityPush: [.activityPush]
    case .broadcast: [.broadcast]
    case .tokenRegistration: [.tokenRegistration]
    }
  }

  /// The app's fetches on every wake channel: every fetch but the widget's own.
  static let appFetchSources = ServerSource.allCases.filter { $0.isFetch && $0 != .widgetFetch }

  /// Whether one request serves the whole fleet (never scaled by `fleet.represents`).
  public var isFleetWide: Bool { self == .broadcast }

  /// Whether fetched bytes are kept per second for it (widget fetches and the app's, all channels).
  public var keepsBytes: Bool { self == .widgetFetch || self == .appFetch }

  /// The streams that partition every request (the total adds these).
  public static let partition: [ServerStream] = ServerSource.allCases.map { source in
    ServerStream.allCases.first { $0.sources == [source] }!
  }
}
