import Results

/// Whether a reload cause spends the instance's budget.
public enum TriggerBudget: Sendable, Equatable {
  case budgeted
  case exempt
  /// A reload the app asks for while running in the background: budgeted unless
  /// `app.background_reloads: exempt` (unresolved [D]).
  case appBackground

  /// The column in the documentation's trigger table.
  public var description: String {
    switch self {
    case .budgeted: "budgeted"
    case .exempt: "exempt"
    case .appBackground: "budgeted (exempt with `app.background_reloads: exempt`)"
    }
  }
}

/// Which instances a trigger reloads when it is raised.
public struct ReloadScope: OptionSet, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The one instance the event names (its policy fell due, it was tapped, it came into view).
  public static let namedInstance = ReloadScope(rawValue: 1)
  /// Every instance on the device.
  public static let everyInstance = ReloadScope(rawValue: 2)
  /// The instances whose data changed: of the changed kind (`on_change: reload_kind`) or all of them
  /// (`reload_all`).
  public static let changedData = ReloadScope(rawValue: 4)
  /// The instances placed in StandBy.
  public static let standbyInstances = ReloadScope(rawValue: 8)
  /// The configurations with a push handler (`push_handler`, implied by `on_change: push`), or every
  /// instance with `system.widget_push.reloads: all`.
  public static let pushHandlers = ReloadScope(rawValue: 16)
  /// Every instance of one kind (the app's `reloadTimelines(ofKind:)` on open, `app.on_open`).
  public static let kindInstances = ReloadScope(rawValue: 32)
  /// The instances placed in CarPlay.
  public static let carplayInstances = ReloadScope(rawValue: 64)

  /// The scope's words in documentation.
  public var description: String {
    var parts: [String] = []
    if contains(.namedInstance) { parts.append("that instance") }
    if contains(.everyInstance) { parts.append("every instance") }
    if contains(.changedData) { parts.append("the changed kind's instances (or all, by `on_change`)") }
    if contains(.standbyInstances) { parts.append("StandBy instances") }
    if contains(.pushHandlers) { parts.append("instances with a push handler") }
    if contains(.kindInstances) { parts.append("the named kinds' instances") }
    if contains(.carplayInstances) { parts.append("CarPlay instances") }
    return parts.joined(separator: "; ")
  }
}

/// Which instances one raised trigger reloads: a value of one of the ``ReloadScope`` kinds.
enum ReloadTargets {
  case instance(InstanceID)
  case everyInstance
  /// The instances the app reloads when the data of this kind changes (by its `on_change`).
  case changedData(KindID)
  case standbyInstances
  case pushHandlers
  /// Every instance of the kind, whatever its `on_change`.
  case kind(KindID)
  case carplayInstances

  var scope: ReloadScope {
    switch self {
    case .instance: .namedInstance
    case .everyInstance: .everyInstance
    case .changedData: .changedData
    case .standbyInstances: .standbyInstances
    case .pushHandlers: .pushHandlers
    case .kind: .kindInstances
    case .carplayInstances: .carplayInstances
    }
  }
}

/// One row of the trigger table: a reload cause, its name in reports, whether it is budgeted, whom it
/// reloads, who raises it, and where the rule comes from.
///
/// The texts are `StaticString`s, so a row is plain data: reading `isBudgeted` in the hot path folds to a
/// constant per cause, with no string to retain or release.
public struct ReloadTrigger: Sendable {
  public let cause: ReloadCause
  public let name: StaticString
  public let budget: TriggerBudget
  public let reloads: ReloadScope
  /// What raises it, in the documentation's words.
  public let raisedBy: StaticString
  /// The source of the rule, as the documentation labels it: [D] Apple's documentation, [O] developers'
  /// observations, [F] folklore, [A] our assumption.
  public let source: StaticString
}

extension ReloadCause {
  /// The trigger table: every reload cause, listed once. The model reads budget and scope from it, the
  /// reports its name, and docs/reports.md's trigger list is checked against it (`TriggerTableTests`).
  /// Adding a cause: a case above, a row here, and the component that raises it.
  public var trigger: ReloadTrigger {
    switch self {
    case .widgetAdded:
      ReloadTrigger(
        cause: self, name: "widget_added", budget: .exempt, reloads: .everyInstance,
        raisedBy: "the start of the simulation (`system.widget_added_reload`)", source: "F")
    case .policy:
      ReloadTrigger(
        cause: self, name: "policy", budget: .budgeted, reloads: .namedInstance,
        raisedBy: "the timeline's `.after` / `.atEnd` date, plus the system's delay", source: "D")
    case .appReload:
      ReloadTrigger(
        cause: self, name: "app_reload", budget: .appBackground, reloads: .changedData,
        raisedBy:
          "`app.always_running` only: the idealised app's `reloadTimelines(ofKind:)` / `reloadAllTimelines()` at every data change, from the background",
        source: "A")
    case .appForeground:
      ReloadTrigger(
        cause: self, name: "app_foreground", budget: .exempt, reloads: [.everyInstance, .kindInstances, .changedData],
        raisedBy:
          "every app open, after the app's fetch (`app.on_open`); data changes while the app is in the foreground",
        source: "D")
    case .audioSession:
      ReloadTrigger(
        cause: self, name: "audio_session", budget: .exempt,
        reloads: [.everyInstance, .kindInstances, .changedData],
        raisedBy: "the start of an audio or navigation session; data changes during one", source: "D")
    case .appIntent:
      ReloadTrigger(
        cause: self, name: "app_intent", budget: .exempt, reloads: .namedInstance,
        raisedBy: "a tap on the widget's or control's App Intent button or toggle", source: "D")
    case .environmentChange:
      ReloadTrigger(
        cause: self, name: "environment_change", budget: .exempt, reloads: .everyInstance,
        raisedBy: "a locale, accessibility, time or similar system change", source: "D")
    case .reboot:
      ReloadTrigger(
        cause: self, name: "reboot", budget: .exempt, reloads: .everyInstance,
        raisedBy: "a reboot, or the phone starting again after its battery ran flat", source: "F")
    case .standby:
      ReloadTrigger(
        cause: self, name: "standby", budget: .exempt, reloads: .standbyInstances,
        raisedBy: "the StandBy display's refresh while charging at night", source: "D")
    case .catchUp:
      ReloadTrigger(
        cause: self, name: "catch_up", budget: .exempt, reloads: .namedInstance,
        raisedBy: "a view of a rarely visited page's widget with a request waiting", source: "D")
    case .push:
      ReloadTrigger(
        cause: self, name: "push", budget: .budgeted, reloads: [.pushHandlers, .everyInstance],
        raisedBy:
          "a delivered WidgetKit or control push: reloads the push-enabled configurations (`system.widget_push.reloads`)",
        source: "D")
    case .backgroundRefresh:
      ReloadTrigger(
        cause: self, name: "background_refresh", budget: .appBackground, reloads: .changedData,
        raisedBy: "a Background App Refresh run whose fetch found new data of the kind", source: "D")
    case .silentPush:
      ReloadTrigger(
        cause: self, name: "silent_push", budget: .appBackground, reloads: .changedData,
        raisedBy: "a background (silent) push's launch whose fetch found new data of the kind", source: "D")
    case .carplay:
      ReloadTrigger(
        cause: self, name: "carplay", budget: .exempt, reloads: .carplayInstances,
        raisedBy: "the CarPlay display's refresh while driving (StandBy-style, iOS 26)", source: "A")
    }
  }

  /// The trigger table as a Markdown table (docs/reports.md's reloads.csv section and Scenarios/README.md's
  /// "Reload triggers" hold exactly this).
  public static var markdownTable: String {
    var lines = [
      "| cause (in reports) | budget | reloads | raised by | source |",
      "|---|---|---|---|---|",
    ]
    for cause in allCases {
      let row = cause.trigger
      lines.append(
        "| `\(row.name)` | \(row.budget.description) | \(row.reloads.description) | \(row.raisedBy) | [\(row.source)] |"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension ReloadCause {
  /// The name in reports.
  public var name: String { trigger.name.description }

  /// Whether this cause spends the instance's budget by default (`app.background_reloads` may exempt the
  /// app's background reloads).
  public var isBudgeted: Bool { trigger.budget != .exempt }
}
