import SimulationEngine

/// One thing an app could have logged about itself on a phone (`widgetsim run --field-log`): nothing it
/// cannot observe (views, budget state, withheld requests, the cause of a reload).
public enum FieldEvent: Sendable, Equatable {
  /// The widget's `getTimeline` ran and handed WidgetKit a timeline: the widget (its index in
  /// ``ScenarioConfiguration/widgets``), the date its policy asked to be reloaded at (nil for `.never`), and
  /// how many entries it held.
  case timeline(widget: Int, next: SimTime?, entries: Int)
  /// The app called `reloadTimelines(ofKind:)` (a kind index in ``ScenarioConfiguration/kinds``) or, with
  /// nil, `reloadAllTimelines()`.
  case reloadCall(kind: Int?)
  /// The app came to the foreground: opened by the user, from a tap on one of its widgets or not.
  case appForeground(fromWidget: Bool)
  /// The app left the foreground.
  case appBackground
  /// A Background App Refresh task started.
  case backgroundRefresh
  /// A push of a kind reached the phone (one that launches the app: it launched it), the line
  /// ``PushKindRow/fieldLogEvent`` names.
  case delivered(PushKind)
  /// A Live Activity of a kind (its index in ``ScenarioConfiguration/liveActivities``) received an update.
  case activityUpdate(activity: Int)
  /// The battery, read at the end of every hour: level 0...1, Low Power Mode, on the charger.
  case battery(level: Double, lowPowerMode: Bool, charging: Bool)
  /// The app's server sent the phone a push: a line of the server's send log, not of the app's log.
  case sent(PushKind)
}

/// One line of a device's field log: when, on the device's local clock, and what.
public struct FieldRecord: Sendable, Equatable {
  public let time: SimTime
  public let event: FieldEvent

  public init(time: SimTime, event: FieldEvent) {
    self.time = time
    self.event = event
  }
}
