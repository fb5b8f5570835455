/// Why a reload was requested. Each cause is one row of the model's trigger table; raw values are
/// the order reports list causes in.
public enum ReloadCause: Int, CaseIterable, Sendable {
  case widgetAdded
  case policy
  case appReload
  case appForeground
  case audioSession
  case appIntent
  case environmentChange
  case reboot
  case standby
  case catchUp
  case push
  case backgroundRefresh
  case silentPush
  case carplay
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
  /// The app's request arrived while WidgetKit ignores its requests (about 30 s after an open from a widget
  /// tap [O]): not built, no budget spent.
  case ignored

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
    case .ignored: "ignored"
    }
  }

  /// Whether this outcome is a reload that ran and delivered a new timeline.
  public var isReload: Bool {
    switch self {
    case .grantedBudget, .grantedExempt, .withheldGranted, .deferredGranted: true
    case .coalesced, .withheldAtEnd, .jetsam, .timeout, .stuck, .ignored: false
    }
  }

  /// Whether the extension ran a build (successful or not).
  public var didBuild: Bool { isReload || self == .jetsam || self == .timeout }
}
