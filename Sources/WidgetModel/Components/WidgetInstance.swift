import Results
import SimulationEngine

/// One widget instance on the device: its reload machine, its budget, its timeline's next reload, what the
/// user has seen of it, and its own random streams. The events addressed to it (`policyReload`, `retry`)
/// carry its ``InstanceID``; the device feeds them to its machine and performs the actions the machine returns.
struct WidgetInstance {
  let id: InstanceID
  let widgetIndex: Int
  /// Whether this device has the widget at all (fleets may install widgets with a probability).
  let installed: Bool
  let kind: KindID
  let placement: WidgetPlacement
  /// The placement's row of the surface table: who sees it, whether a view there catches up.
  let placementRule: PlacementRule
  let surface: WidgetSurface
  /// Whether a WidgetKit push reloads it (its configuration has a push handler).
  let pushHandler: Bool
  let timeline: TimelineConfiguration
  let build: BuildConfiguration
  /// The build's distributions as drawn on every reload: plain values, where reading `build.cpuSeconds` out
  /// of the instance array copies the distribution with a retain and a release (`build` keeps them alive).
  let buildDraws: BuildDraws
  var machine = ReloadMachine()
  var budget: ReloadBudget
  /// The timeline policy's next reload, and when it is due.
  var policyEvent: EventHandle?
  var policyTime = SimTime.zero
  /// The waiting request's next attempt (only while ``ReloadMachine/isWaiting``; none while no time can help).
  var retryEvent: EventHandle?
  var lastReload: SimTime?
  /// When the instance last lost its content to the placeholder (a build ran out of time): the last moment
  /// its content was current. Nil while it never had content.
  var lastGoodContent: SimTime?
  var viewsThisHour = 0.0
  /// Views in each clock hour of the last 24 h (the engagement measure), seeded with the expected views.
  var viewsByClockHour: [Double]
  let streams: InstanceStreams

  init(
    id: InstanceID, widgetIndex: Int, widget: WidgetConfiguration, placement: WidgetPlacement, installed: Bool,
    kind: KindID, refill: BudgetRefill, expectedViews: [Double], streams: InstanceStreams
  ) {
    self.id = id
    self.widgetIndex = widgetIndex
    self.installed = installed
    self.kind = kind
    self.placement = placement
    placementRule = placement.rule
    surface = widget.surface
    pushHandler = widget.pushHandler
    timeline = widget.timeline
    build = widget.build
    buildDraws = BuildDraws(
      cpuSeconds: widget.build.cpuSeconds.sampler, fetchBytes: widget.build.fetchBytes.sampler,
      memoryBytes: widget.build.memoryBytes.sampler)
    budget = ReloadBudget(refill: refill, allowance: 0, start: .zero)
    viewsByClockHour = expectedViews
    self.streams = streams
  }

  /// What a view of the instance finds: nil for the placeholder, else how long the data has been newer than
  /// the content (zero when current).
  func staleness(at now: SimTime) -> SimDuration? {
    switch machine.display {
    case .placeholder: nil
    case .current: .zero
    case .behind(let since): now - since
    }
  }

  /// How long a view of the placeholder at `now` is behind: since the instance's last good content, or since
  /// `added` (when the user added the widgets) when it never had any.
  func placeholderAge(at now: SimTime, added: SimTime) -> SimDuration {
    now - (lastGoodContent ?? added)
  }

  /// The engagement measure: views over the last 24 clock hours.
  var viewsPerDay: Double {
    var views = 0.0
    for value in viewsByClockHour { views += value }
    return views
  }

  /// Forgets the retry event (it ran, or is being cancelled by the caller).
  mutating func takeRetryEvent() -> EventHandle? {
    defer { retryEvent = nil }
    return retryEvent
  }
}

/// What a timeline build draws: CPU time, fetch size, peak memory.
struct BuildDraws {
  let cpuSeconds: DistributionSampler
  let fetchBytes: DistributionSampler
  let memoryBytes: DistributionSampler
}

/// One instance's random streams: the system's lateness on its policy, its builds, whether a Smart Stack
/// shows it, whether a jetsam leaves it stuck, and when the system reloads a one-entry `.atEnd` timeline
/// (the last two only made when they can happen).
///
/// They are drawn from on every reload and view: borrowed (no reference counting on each draw), and kept
/// alive by `owners`, which lives exactly as long as they do.
struct InstanceStreams {
  let afterDelay: BorrowedStream
  let build: BorrowedStream
  let smartStack: BorrowedStream
  let jetsamStuck: BorrowedStream?
  /// Only for a one-entry `.atEnd` timeline, whose next reload the system chooses.
  let systemChosenDelay: BorrowedStream?
  private let owners: [RandomStream]

  init(
    afterDelay: RandomStream, build: RandomStream, smartStack: RandomStream, jetsamStuck: RandomStream?,
    systemChosenDelay: RandomStream?
  ) {
    self.afterDelay = afterDelay.borrowed
    self.build = build.borrowed
    self.smartStack = smartStack.borrowed
    self.jetsamStuck = jetsamStuck?.borrowed
    self.systemChosenDelay = systemChosenDelay?.borrowed
    owners = [afterDelay, build, smartStack] + [jetsamStuck, systemChosenDelay].compactMap { $0 }
  }
}
