import SimulationEngine

/// WidgetKit push notifications (iOS 26 `WidgetPushHandler`, `apns-push-type: widgets`): budgeted and
/// delivered opportunistically [D]; a delivered push reloads like `reloadAllTimelines()` [D]. APNs keeps
/// one undelivered push per topic; a newer one replaces it [D].
public struct WidgetPushConfiguration: Sendable {
  /// Pushes the device accepts per hour; more are throttled (dropped). [F] "~5 per hour": Apple publishes
  /// no figure.
  public var perHour: Double
  /// Pushes the device accepts per 24 h ([A]).
  public var perDay: Double
  /// Opportunistic delivery delay after sending, in seconds ([A] exponential, mean 1 min).
  public var delay: Distribution
  /// Whether pushes wait while the user sleeps (device idle) and arrive when they wake ([A]).
  public var waitWhileAsleep: Bool
  /// Which configurations a delivered push reloads: those with a push handler [D, WWDC25], or (`all`, the
  /// old rule, for comparison) every widget and control.
  public var reloads: WidgetPushScope = .pushHandlers

  public init(
    perHour: Double = 5, perDay: Double = 60, delay: Distribution = WidgetPushConfiguration.defaultDelay,
    waitWhileAsleep: Bool = true
  ) {
    self.perHour = perHour
    self.perDay = perDay
    self.delay = delay
    self.waitWhileAsleep = waitWhileAsleep
  }

  public static let defaultDelay = try! Distribution.exponential(mean: 60)  // literal, valid
}

/// What a delivered WidgetKit push reloads.
public enum WidgetPushScope: String, Sendable, CaseIterable {
  /// The configurations with a push handler ("all of the push enabled widgets configured on the device"
  /// [D, WWDC25]); one push token per device serves them all.
  case pushHandlers = "push_handlers"
  /// Every widget and control of the app, as if each had a handler (the rule before this was known).
  case all
}
