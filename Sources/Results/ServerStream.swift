/// The request streams a provisioning figure is given for: the app's fetches on every wake channel together,
/// and each ``ServerSource`` alone (widget fetches, the app's fetches by the wake channel that ran it, pushes
/// by type, a broadcast channel's updates, Live Activity token registrations), so that a new source is a new
/// stream with nothing written here.
public enum ServerStream: Hashable, Sendable, CaseIterable {
  /// The app's fetches on every wake channel: every fetch but the widget's own.
  case appFetch
  /// One source's requests.
  case source(ServerSource)

  /// Every stream in the order `summary.csv` lists them: the widget's fetches, the app's on every channel,
  /// then each other source in its own order.
  public static let allCases: [ServerStream] =
    [.source(.widgetFetch), .appFetch] + ServerSource.allCases.dropFirst().map(ServerStream.source)

  /// Its place in ``allCases`` (the widget's fetches are the first source).
  public var rawValue: Int {
    switch self {
    case .appFetch: 1
    case .source(let source): source == .widgetFetch ? 0 : source.rawValue + 1
    }
  }

  /// How `summary.csv` names it (in the `widget` column of the provisioning metrics).
  public var name: String {
    switch self {
    case .appFetch: "app_fetch"
    case .source(let source): source.streamName
    }
  }

  /// The sources it counts.
  public var sources: [ServerSource] {
    switch self {
    case .appFetch: ServerStream.appFetchSources
    case .source(let source): [source]
    }
  }

  /// The app's fetches on every wake channel: every fetch but the widget's own.
  static let appFetchSources = ServerSource.allCases.filter { $0.isFetch && $0 != .widgetFetch }

  /// Whether one request serves the whole fleet (never scaled by `fleet.represents`).
  public var isFleetWide: Bool {
    switch self {
    case .appFetch: false
    case .source(let source): source.isFleetWide
    }
  }

  /// Whether fetched bytes are kept per second for it (widget fetches and the app's, all channels).
  public var keepsBytes: Bool { self == .source(.widgetFetch) || self == .appFetch }

  /// The streams that partition every request (the total adds these): each source alone.
  public static let partition: [ServerStream] = ServerSource.allCases.map(ServerStream.source)
}
