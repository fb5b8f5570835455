import WidgetModel

/// One line of a field log, read: when, which phone, and what its app saw.
public struct FieldLogEntry: Sendable, Equatable {
  public var time: FieldLogTime
  /// The phone's opaque id, as the app wrote it.
  public var device: String
  public var event: FieldLogEvent

  public init(time: FieldLogTime, device: String, event: FieldLogEvent) {
    self.time = time
    self.device = device
    self.event = event
  }
}

/// What an app can observe, one case per `event` of docs/field-logs.md.
public enum FieldLogEvent: Sendable, Equatable {
  /// Its TimelineProvider's `getTimeline` ran: the widget's kind and family, the policy it returned
  /// (`after`, `at_end`, `never`), the date the policy asked to be reloaded at, and the entries.
  case timeline(kind: String, family: String?, policy: String?, next: FieldLogTime?, entries: Int?)
  /// It called `reloadTimelines(ofKind:)`, or `reloadAllTimelines()` (kind nil).
  case reloadCall(kind: String?)
  /// It came to the foreground; whether from a tap on one of its widgets, when it knows.
  case appForeground(fromWidget: Bool?)
  case appBackground
  /// Its `BGAppRefreshTask` ran.
  case backgroundRefresh
  /// A push of a kind was delivered (a WidgetKit push received, a background push launched it), the line
  /// its kind's ``PushKindRow/fieldLogEvent`` names.
  case delivered(PushKind)
  /// A Live Activity received an update.
  case activityUpdate(activity: String?)
  /// The battery: level 0...1, Low Power Mode, charging (each when known).
  case battery(level: Double?, lowPower: Bool?, charging: Bool?)
  /// The app's server sent the phone a push (a row of the server's send log), with its APNs priority.
  case serverSent(push: PushKind, priority: Int?)

  /// The name the log gives it.
  public var name: String {
    switch self {
    case .timeline: "timeline"
    case .reloadCall: "reload_call"
    case .appForeground: "app_foreground"
    case .appBackground: "app_background"
    case .backgroundRefresh: "background_refresh"
    case .delivered(let push): push.row.fieldLogEvent.description
    case .activityUpdate: "activity_update"
    case .battery: "battery"
    case .serverSent: "server_sent"
    }
  }

  /// The deliveries by the `event` name of their lines (``PushKindRow/fieldLogEvent``), from the push-kind
  /// table.
  static let deliveries = Dictionary(
    uniqueKeysWithValues: PushKind.allCases.map { ($0.row.fieldLogEvent.description, FieldLogEvent.delivered($0)) })
}
