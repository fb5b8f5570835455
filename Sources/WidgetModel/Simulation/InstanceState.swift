import SimulationEngine

/// A budgeted request waiting for budget, the minimum interval, or the user to wake.
struct PendingRequest {
  let cause: ReloadCause
  let requestTime: SimTime
  /// Whether it ever found the budget empty (then it ends as `withheld_granted`, else `deferred_granted`).
  var waitedForBudget: Bool
}

/// One widget instance during a run.
struct InstanceState {
  let widgetIndex: Int
  /// Whether this device has the widget at all (fleets may install widgets with a probability).
  let installed: Bool
  let kindIndex: Int
  let placement: WidgetPlacement
  let timeline: TimelineConfiguration
  var budget: ReloadBudget
  var policyEvent: EventHandle?
  var policyTime = SimTime.zero
  var retryEvent: EventHandle?
  var pending: PendingRequest?
  var lastReload: SimTime?
  var hasContent = false
  /// After a jetsam, possibly stuck until the app is next opened: reloads fail without building.
  var stuck = false
  /// The first data change the displayed content does not reflect; nil when current.
  var firstUnseenChange: SimTime?
  var viewsThisHour = 0.0
  /// Views in each clock hour of the last 24 h (the engagement measure), seeded with the expected views.
  var viewsByClockHour: [Double]
  /// The instance's own streams: the system's lateness, its builds, whether a Smart Stack shows it.
  let delayStream: RandomStream
  let buildStream: RandomStream
  let visibilityStream: RandomStream
}

/// Why a budgeted request cannot run right now.
enum GrantBlocker {
  case none
  /// The budget is empty.
  case budget
  /// Budget is there, but the minimum interval has not passed or the user sleeps.
  case deferred
}

/// How a timeline build ended.
enum BuildResult {
  case success
  /// Killed for passing the memory ceiling.
  case jetsam
  /// Cut off at the time limit.
  case timeout
}
