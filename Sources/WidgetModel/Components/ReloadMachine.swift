import Results
import SimulationEngine

/// A reload request: why, and when it was made (counts go to the hour it was made in).
struct ReloadRequest: Equatable {
  let cause: ReloadCause
  let time: SimTime
  /// Whether it waited before being decided, and whether it ever found the budget empty: the outcome it
  /// is granted with (`granted_budget`, `deferred_granted`, `withheld_granted`).
  var waited: Waited = .no

  enum Waited: Equatable {
    case no, deferred, withheld
  }

  /// The outcome of granting it from budget now.
  var grantOutcome: ReloadOutcome {
    switch waited {
    case .no: .grantedBudget
    case .deferred: .deferredGranted
    case .withheld: .withheldGranted
    }
  }
}

/// Where an instance's request stands while its extension can be launched, or while it is stuck.
enum RequestPhase: Equatable {
  /// Nothing waits.
  case idle
  /// A budgeted request awaits WidgetKit's decision (budget, minimum interval, sleep): the machine asks
  /// for it with ``ReloadAction/decide`` and takes it through ``ReloadMachine/decide(_:)``.
  case requested(ReloadRequest)
  /// A budgeted request waits and has found the budget empty at least once.
  case withheld(ReloadRequest)
  /// A budgeted request waits for the minimum interval or for the user to wake; the budget was there.
  case deferred(ReloadRequest)

  /// The request that waits (or awaits a decision), if any.
  var request: ReloadRequest? {
    switch self {
    case .idle: nil
    case .requested(let request), .withheld(let request), .deferred(let request): request
    }
  }
}

/// One widget instance's reload life.
enum ReloadState: Equatable {
  /// The extension can be launched; a request may wait.
  case ready(RequestPhase)
  /// A reload was granted and the device builds its timeline now; `budgeted` says whether it spent budget
  /// (a budgeted reload may pull other instances' policy reloads forward).
  case building(ReloadRequest, granted: ReloadOutcome, budgeted: Bool)
  /// Killed by jetsam and stuck until the app is next opened [O]: granted reloads end as `stuck` without
  /// building or spending budget. Budgeted requests still wait their turn.
  case stuck(RequestPhase)
}

/// What the content shown to the user reflects.
enum Display: Equatable {
  /// No timeline yet, or the last build ran out of time.
  case placeholder
  /// The content reflects the latest data.
  case current
  /// The data changed at `since` and the content does not show it yet.
  case behind(since: SimTime)

  /// The last moment this display was current: `now` when it is, the data's change when it is behind, nil
  /// for the placeholder.
  func lastCurrent(at now: SimTime) -> SimTime? {
    switch self {
    case .placeholder: nil
    case .current: now
    case .behind(let since): since
    }
  }

  /// A built timeline showing data of this freshness.
  init(_ freshness: Freshness) {
    switch freshness {
    case .current: self = .current
    case .behind(let since): self = .behind(since: since)
    }
  }
}

/// What the device must do after an input to the machine.
enum ReloadAction: Equatable {
  case none
  /// Count `request` with `outcome` (a budgeted request that joined the waiting one, as `coalesced`).
  case count(ReloadRequest, ReloadOutcome)
  /// Ask WidgetKit: compute what blocks a budgeted reload now and pass it to ``ReloadMachine/decide(_:)``.
  case decide
  /// The request waits: schedule its retry at the earliest time it could run. `budgetEmpty`: it found no
  /// budget (the day counts as exhausted).
  case wait(budgetEmpty: Bool)
  /// Build the timeline now and report the result to ``ReloadMachine/buildEnded(_:)``. `spend`: take one
  /// reload from the budget first (`lastGrant`: and note the time of day of an immediate budget grant).
  /// `superseded`: a waiting request this reload satisfies, to count as coalesced.
  case build(spend: Bool, lastGrant: Bool, superseded: ReloadRequest?)
  /// Not built: the extension is stuck. Take nothing from the budget; count `request` as stuck and
  /// `superseded` (if any) as coalesced.
  case stuck(ReloadRequest, superseded: ReloadRequest?)
  /// The build ended: count `request` with `outcome`, then schedule the policy's next reload (and, if
  /// `budgeted`, pull other instances' policy reloads forward).
  case built(ReloadRequest, ReloadOutcome, budgeted: Bool)
}

/// How a timeline build ended.
enum BuildResult: Equatable {
  /// Built, showing data of this freshness: the server's latest when the build fetched, else what the App
  /// Group store holds.
  case success(Freshness)
  /// Killed for passing the memory ceiling; `stuck`: and the extension stays stuck [O].
  case jetsam(stuck: Bool)
  /// Cut off at the time limit.
  case timeout
}

/// Why a budgeted request cannot run right now.
enum GrantBlocker: Equatable {
  case none
  /// The budget is empty.
  case budget
  /// Budget is there, but the minimum interval has not passed or the user sleeps.
  case deferred
}

/// A widget instance's reload life as a state machine (swift-nio style): one value, one `mutating` function
/// per input, each returning the ``ReloadAction`` the device performs. No scheduling, drawing or counting
/// happens here, so tests drive it directly. Debug builds check ``invariantsHold`` after every input.
///
/// The full table of states, inputs and actions is in docs/ARCHITECTURE.md.
struct ReloadMachine: Equatable {
  private(set) var state: ReloadState = .ready(.idle)
  private(set) var display: Display = .placeholder

  /// A reload request at `now`, budgeted as the trigger table says by default.
  mutating func request(_ cause: ReloadCause, at now: SimTime) -> ReloadAction {
    request(cause, budgeted: cause.isBudgeted, at: now)
  }

  /// A reload request at `now`. Exempt ones build at once (satisfying any waiting request); budgeted ones
  /// join a waiting request, or ask for a decision.
  mutating func request(_ cause: ReloadCause, budgeted: Bool, at now: SimTime) -> ReloadAction {
    defer { checkInvariants() }
    let request = ReloadRequest(cause: cause, time: now)
    switch state {
    case .ready(let phase):
      if !budgeted {
        state = .building(request, granted: .grantedExempt, budgeted: false)
        return .build(spend: false, lastGrant: false, superseded: phase.request)
      }
      if phase.request != nil { return .count(request, .coalesced) }
      state = .ready(.requested(request))
      return .decide
    case .stuck(let phase):
      if !budgeted {
        state = .stuck(.idle)
        return .stuck(request, superseded: phase.request)
      }
      if phase.request != nil { return .count(request, .coalesced) }
      state = .stuck(.requested(request))
      return .decide
    case .building:
      preconditionFailure("reload requested while a build is under way")
    }
  }

  /// The waiting request's retry fell due (or the user woke): ask for a decision again.
  mutating func retry() -> ReloadAction {
    defer { checkInvariants() }
    switch state {
    case .ready(.withheld(let request)), .ready(.deferred(let request)):
      state = .ready(.requested(request))
      return .decide
    case .stuck(.withheld(let request)), .stuck(.deferred(let request)):
      state = .stuck(.requested(request))
      return .decide
    default:
      return .none
    }
  }

  /// WidgetKit's decision on the request that awaits one.
  mutating func decide(_ blocker: GrantBlocker) -> ReloadAction {
    defer { checkInvariants() }
    let stuck: Bool
    var request: ReloadRequest
    switch state {
    case .ready(.requested(let waiting)): (stuck, request) = (false, waiting)
    case .stuck(.requested(let waiting)): (stuck, request) = (true, waiting)
    default: preconditionFailure("decision without a request awaiting one: \(state)")
    }
    let phase: RequestPhase
    switch blocker {
    case .none:
      if stuck {
        state = .stuck(.idle)
        return .stuck(request, superseded: nil)
      }
      state = .building(request, granted: request.grantOutcome, budgeted: true)
      return .build(spend: true, lastGrant: request.waited == .no, superseded: nil)
    case .budget:
      request.waited = .withheld
      phase = .withheld(request)
    case .deferred:
      if request.waited == .no { request.waited = .deferred }
      phase = request.waited == .withheld ? .withheld(request) : .deferred(request)
    }
    state = stuck ? .stuck(phase) : .ready(phase)
    return .wait(budgetEmpty: blocker == .budget)
  }

  /// The build the machine asked for ended.
  mutating func buildEnded(_ result: BuildResult) -> ReloadAction {
    defer { checkInvariants() }
    guard case .building(let request, let granted, let budgeted) = state else {
      preconditionFailure("build ended without a build: \(state)")
    }
    switch result {
    case .success(let freshness):
      state = .ready(.idle)
      display = Display(freshness)
      return .built(request, granted, budgeted: budgeted)
    case .jetsam(let stuck):
      state = stuck ? .stuck(.idle) : .ready(.idle)
      return .built(request, .jetsam, budgeted: budgeted)
    case .timeout:
      state = .ready(.idle)
      display = .placeholder
      return .built(request, .timeout, budgeted: budgeted)
    }
  }

  /// The app was launched: a stuck extension can be launched again [O].
  mutating func appLaunched() {
    if case .stuck(let phase) = state { state = .ready(phase) }
    checkInvariants()
  }

  /// The data behind the widget changed at `now`.
  mutating func dataChanged(at now: SimTime) {
    if display == .current { display = .behind(since: now) }
  }

  /// The request that waits for budget, the minimum interval or the user, if any.
  var waitingRequest: ReloadRequest? {
    switch state {
    case .ready(.withheld(let request)), .ready(.deferred(let request)), .stuck(.withheld(let request)),
      .stuck(.deferred(let request)):
      request
    default: nil
    }
  }

  var isWaiting: Bool { waitingRequest != nil }

  /// Whether the machine rests: not awaiting a decision or a build's result (true after every event).
  var isSettled: Bool {
    switch state {
    case .building, .ready(.requested), .stuck(.requested): false
    case .ready, .stuck: true
    }
  }

  /// What must hold after every input: a waiting request's state agrees with its history (a withheld
  /// request has found the budget empty, a deferred one never has). That the machine rests only in settled
  /// states between events is ``isSettled``, which the device checks after each event.
  var invariantsHold: Bool {
    switch state {
    case .building, .ready(.requested), .stuck(.requested): true
    case .ready(.withheld(let request)), .stuck(.withheld(let request)): request.waited == .withheld
    case .ready(.deferred(let request)), .stuck(.deferred(let request)): request.waited == .deferred
    case .ready(.idle), .stuck(.idle): true
    }
  }

  @inline(__always)
  private func checkInvariants() {
    assert(invariantsHold, "reload machine broke its invariants: \(state)")
  }
}
