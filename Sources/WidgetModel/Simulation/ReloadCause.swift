/// Why a reload was requested. Raw values are the names reports use.
public enum ReloadCause: Int, CaseIterable, Sendable {
  /// The widget was added (each instance at the start of the simulation): exempt.
  case widgetAdded
  /// The timeline's own policy (`.after` / `.atEnd`) fell due: budgeted.
  case policy
  /// The app called `reloadTimelines(ofKind:)` / `reloadAllTimelines()` from the background: budgeted.
  case appReload
  /// The app reloaded while in the foreground (on opening, or on a data change during a session): exempt.
  case appForeground
  /// The app reloaded during an audio or navigation session: exempt.
  case audioSession
  /// The user tapped an App Intent button or toggle: one immediate reload of that instance, exempt.
  case appIntent
  /// Locale, accessibility, time or similar system change: exempt.
  case environmentChange
  /// System reload after a reboot: exempt.
  case reboot
  /// StandBy display refresh while charging at night: exempt.
  case standby
  /// A widget on a rarely visited page became visible with a reload pending: exempt.
  case catchUp
  /// A WidgetKit push arrived: reloads like `reloadAllTimelines()`, budgeted.
  case push

  /// The name in reports.
  public var name: String {
    switch self {
    case .widgetAdded: "widget_added"
    case .policy: "policy"
    case .appReload: "app_reload"
    case .appForeground: "app_foreground"
    case .audioSession: "audio_session"
    case .appIntent: "app_intent"
    case .environmentChange: "environment_change"
    case .reboot: "reboot"
    case .standby: "standby"
    case .catchUp: "catch_up"
    case .push: "push"
    }
  }

  /// Whether this cause spends the instance's budget.
  public var isBudgeted: Bool { self == .policy || self == .appReload || self == .push }
}

/// What finally became of a reload request. Every request gets exactly one.
public enum ReloadOutcome: Int, CaseIterable, Sendable {
  /// Granted at once, spending one unit of budget.
  case grantedBudget
  /// Granted at once without spending budget (an exempt cause).
  case grantedExempt
  /// Found no budget, waited, and was granted from budget when it returned.
  case withheldGranted
  /// Had budget but waited for the minimum interval or for the user to wake, then was granted.
  case deferredGranted
  /// Merged into another reload: a request already waiting, or a reload that happened while it waited.
  case coalesced
  /// Still waiting when the simulation ended.
  case withheldAtEnd
  /// Granted, but the build's peak memory passed the ceiling and the extension was killed: the widget keeps
  /// its old content. Spent budget if the cause is budgeted.
  case jetsam
  /// Granted, but the build (CPU time plus fetch time) ran past the time limit: the placeholder shows until
  /// the next successful build. Spent budget if the cause is budgeted.
  case timeout
  /// Not built: the instance is stuck after a jetsam until the app is next opened. Spent no budget.
  case stuck

  public var name: String {
    switch self {
    case .grantedBudget: "granted_budget"
    case .grantedExempt: "granted_exempt"
    case .withheldGranted: "withheld_granted"
    case .deferredGranted: "deferred_granted"
    case .coalesced: "coalesced"
    case .withheldAtEnd: "withheld_at_end"
    case .jetsam: "jetsam"
    case .timeout: "timeout"
    case .stuck: "stuck"
    }
  }

  /// Whether this outcome is a reload that ran and delivered a new timeline.
  public var isReload: Bool {
    switch self {
    case .grantedBudget, .grantedExempt, .withheldGranted, .deferredGranted: true
    case .coalesced, .withheldAtEnd, .jetsam, .timeout, .stuck: false
    }
  }

  /// Whether the extension ran a build (successful or not).
  public var didBuild: Bool { isReload || self == .jetsam || self == .timeout }
}
