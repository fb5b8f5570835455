import Results

/// A push the app's server sends a phone on a widget kind's data change (`data.on_change`), as its send log
/// names it (`silent`, `widget`). Each is one row of ``PushKind/row``.
public enum PushKind: String, Sendable, CaseIterable {
  /// A WidgetKit push (`apns-push-type: widgets`, priority 10).
  case widget
  /// A background push (`apns-push-type: background`, priority 5) that launches the app.
  case silent
}

/// One row of the push-kind table: what a scenario writes to send it, how the server sends it, where a
/// trace and a field log show it, what its delivery costs and does.
public struct PushKindRow: Sendable {
  public let kind: PushKind
  /// The word in a widget's `data.on_change` list that sends it on every change.
  public let scenarioKey: StaticString
  /// The APNs priority the server sends it with.
  public let priority: Int
  /// Its `apns-push-type` header, a name a send log may give it besides its own (``PushKind/rawValue``).
  public let apnsPushType: StaticString
  /// Its column in `server_load.csv` (a push sent per device).
  public let serverSource: ServerSource
  /// Its topic in a device's trace (`trace.csv`'s subject for its sends and deliveries).
  public let traceTopic: StaticString
  /// The `event` of the field-log line its delivery writes (``FieldEvent/delivered(_:)``).
  public let fieldLogEvent: StaticString
  /// What waking for its delivery is booked under.
  public let energy: EnergyComponent
  /// The wake channel it launches the app on; nil: it does not launch the app (a WidgetKit push reloads
  /// the widgets itself, with the `push` cause).
  public let launches: AppWakeChannel?
  /// The section under `system` holding its delivery caps and delays (`system.silent_push`): for a kind that
  /// launches the app, a ``LaunchingPushConfiguration`` the decoder reads for every such kind.
  public let capsSection: StaticString
}

extension PushKind {
  /// The push-kind table: every push a data change can send, listed once. The decoder reads its scenario
  /// key, fleet events and the fan-out windows its server source, the field log its names
  /// (`PushKindTableTests`). Adding a kind: a case above, a row here (with its wake channel's row if it
  /// launches the app), and its delivery channel.
  public var row: PushKindRow {
    switch self {
    case .widget:
      PushKindRow(
        kind: self, scenarioKey: "push", priority: 10, apnsPushType: "widgets", serverSource: .widgetPush,
        traceTopic: "widgets",
        fieldLogEvent: "widget_push", energy: .pushWake, launches: nil, capsSection: "widget_push")
    case .silent:
      PushKindRow(
        kind: self, scenarioKey: "silent_push", priority: 5, apnsPushType: "background", serverSource: .silentPush,
        traceTopic: "silent",
        fieldLogEvent: "silent_push", energy: .pushWake, launches: .silentPush, capsSection: "silent_push")
    }
  }

  /// The APNs priority the server sends it with.
  public var priority: Int { row.priority }

  /// The kinds that launch the app, in the table's order: a device has one ``LaunchingPushChannel`` for
  /// each, at its place here.
  public static let launching = allCases.filter { $0.row.launches != nil }

  /// `kinds` in the table's order (the order a change sends them in), as an array the device walks
  /// without hashing.
  static func ordered(_ kinds: Set<PushKind>) -> [PushKind] {
    allCases.filter(kinds.contains)
  }
}
