import SimulationEngine

/// A widget's size class, as WidgetKit names it.
public enum WidgetFamily: String, Sendable, CaseIterable {
  case systemSmall, systemMedium, systemLarge, systemExtraLarge
  case accessoryCircular, accessoryRectangular, accessoryInline

  /// Accessory families live on the Lock Screen (and StandBy shows system families).
  public var isAccessory: Bool { rawValue.hasPrefix("accessory") }
}

/// Where the widget sits, which decides which of the user's views see it (its row of the surface table,
/// ``rule``, says how).
public enum WidgetPlacement: String, Sendable, CaseIterable {
  /// First Home Screen page: every Home Screen view sees it.
  case home
  /// Another Home Screen page: seen when a view visits that page (`user.other_page_probability`); gets a
  /// catch-up reload when seen with a reload pending [D].
  case homeOtherPage = "home_other_page"
  /// In a Smart Stack: seen at a Home Screen view when the stack shows it (`user.smart_stack`).
  case smartStack = "smart_stack"
  /// Lock Screen: every Lock Screen view sees it.
  case lockScreen = "lock_screen"
  /// StandBy: seen while the phone charges at night; refreshed by the system, exempt [D].
  case standby
  /// CarPlay (iOS 26): a `systemSmall` widget rendered StandBy-style [D] while the user drives
  /// (`user.carplay`); refreshed and seen like StandBy [A].
  case carplay
  /// A control in Control Center: seen at Control Center views (`user.control_center_views`).
  case controlCenter = "control_center"
  /// A control on the Action button: pressed, never looked at (no staleness is measured).
  case actionButton = "action_button"
}

/// What a configuration is: a widget (`widgets:`) or a control (`controls:`, iOS 18 `ControlWidget`).
/// Both reload through WidgetKit's machinery and are reported in the same tables, told apart by the
/// `subject_kind` column.
public enum WidgetSurface: String, Sendable, CaseIterable {
  case widget
  case control
}

/// What the timeline provider asks for after each reload.
public enum ReloadPolicy: Sendable, Hashable {
  /// Reload after the last entry's date.
  case atEnd
  /// Reload no earlier than this long after the reload.
  case after(SimDuration)
  /// Never reload on its own; only triggers reload.
  case never
}

/// How an `.after` policy's date is chosen.
public enum TimelineAlignment: String, Sendable, Hashable, CaseIterable {
  /// `after` past the reload.
  case none
  /// The next multiple of `after` on the local clock (counted from each local midnight): with `after: 15m`,
  /// the next quarter hour. Apps pass `.after(date)` a date, and a clock-aligned date synchronises every
  /// device in a time zone [D for dates; the fleet effect is our inference, A].
  case clock
}

/// The timeline a reload produces.
public struct TimelineConfiguration: Sendable, Hashable {
  public var policy: ReloadPolicy
  /// Entries per timeline ([O] more than ~400 stopped updates).
  public var entries: Int
  /// Time between entries (any positive spacing; `validate` warns below 5 minutes, the cadence Apple's
  /// guidance gives for reloads, not entries [A]).
  public var spacing: SimDuration
  /// With `.after`: whether its date is `after` past the reload or aligned to the local clock.
  public var alignment: TimelineAlignment
  /// With `.after`: the local times it asks for (`.after(next listed time)`) instead of an interval.
  public var times: [TimeOfDay]
  /// Outside this daily local window the provider asks for `.after(window start)` (a market-hours widget).
  public var activeWindow: SleepWindow?

  public init(
    policy: ReloadPolicy, entries: Int = 1, spacing: SimDuration = .minutes(15), alignment: TimelineAlignment = .none,
    times: [TimeOfDay] = [], activeWindow: SleepWindow? = nil
  ) {
    self.policy = policy
    self.entries = entries
    self.spacing = spacing
    self.alignment = alignment
    self.times = times
    self.activeWindow = activeWindow
  }

  /// Whether the next reload's date is the system's choice: `.atEnd` with a single entry [D, WWDC21
  /// "Principles of great widgets"] (drawn from `system.at_end_single_entry_delay`).
  public var systemChoosesNextReload: Bool {
    policy == .atEnd && entries == 1
  }

  /// The date the provider asks for after a reload at `now`, before the system's lateness; nil for `never`.
  /// `systemChosenDelay` is the draw used when ``systemChoosesNextReload``.
  ///
  /// - Outside ``activeWindow``: the window's next start.
  /// - `.atEnd`: the last entry's date, `(entries - 1) × spacing` after the reload [D: "after the last date in
  ///   a timeline passes"].
  /// - `.after`: the next listed time (``times``), the next clock multiple (``alignment``), or `after` past
  ///   the reload.
  // Inlined: called on an instance's timeline in place, it would otherwise copy the configuration (retaining
  // its arrays) at every reload.
  @inline(__always)
  public func nextReloadDate(after now: SimTime, systemChosenDelay: SimDuration = .zero) -> SimTime? {
    if case .never = policy { return nil }
    if let activeWindow, !activeWindow.contains(now) {
      return activeWindow.from.next(after: now)
    }
    switch policy {
    case .never:
      return nil
    case .atEnd:
      if entries == 1 { return now + systemChosenDelay }
      return now + SimDuration(microseconds: spacing.microseconds * Int64(entries - 1))
    case .after(let interval):
      if !times.isEmpty {
        // A loop, not map + min: this runs at every reload (no allocation in the hot path).
        var earliest = times[0].next(after: now)
        for time in times.dropFirst() { earliest = Swift.min(earliest, time.next(after: now)) }
        return earliest
      }
      guard alignment == .clock, interval.microseconds > 0 else { return now + interval }
      let sinceMidnight = now.sinceMidnight.microseconds
      let next = (sinceMidnight / interval.microseconds + 1) * interval.microseconds
      return now - now.sinceMidnight + SimDuration(microseconds: Swift.min(next, SimDuration.day.microseconds))
    }
  }
}

/// What building one timeline costs.
public struct BuildConfiguration: Sendable {
  /// CPU time of one `getTimeline` call, in seconds.
  public var cpuSeconds: Distribution
  /// Probability that a build fetches from the network.
  public var fetchProbability: Double
  /// Bytes fetched when it does.
  public var fetchBytes: Distribution
  /// Peak memory of the extension during a one-entry build, in bytes.
  public var memoryBytes: Distribution
  /// Extra peak memory per timeline entry beyond the first, in bytes ([A] 25 KB: no source gives a figure;
  /// ~10 MB per timeline [O] and updates stopping past ~400 entries [O] suggest tens of KB): a build's peak is
  /// `memory + (entries - 1) * memory_per_entry`.
  public var memoryPerEntryBytes: Double
  /// How long a build may run ([F] "under 5 s").
  public var timeLimit: SimDuration

  public init(
    cpuSeconds: Distribution = BuildConfiguration.defaultCPU, fetchProbability: Double = 1,
    fetchBytes: Distribution = BuildConfiguration.defaultFetch,
    memoryBytes: Distribution = BuildConfiguration.defaultMemory, memoryPerEntryBytes: Double = 25_000,
    timeLimit: SimDuration = .seconds(5)
  ) {
    self.memoryPerEntryBytes = memoryPerEntryBytes
    self.cpuSeconds = cpuSeconds
    self.fetchProbability = fetchProbability
    self.fetchBytes = fetchBytes
    self.memoryBytes = memoryBytes
    self.timeLimit = timeLimit
  }

  // Literal, valid parameters.
  public static let defaultCPU = try! Distribution.lognormal(median: 0.25, sigma: 0.5)
  public static let defaultFetch = try! Distribution.lognormal(median: 30_000, sigma: 0.8)
  public static let defaultMemory = try! Distribution.normal(mean: 14_000_000, sd: 3_000_000, lower: 1_000_000)
}

/// What the app does when it *learns* that the widget's data changed (it runs: in the foreground, in an
/// audio session, or launched in the background); a change while it does not run waits for the next run.
public enum DataChangeAction: String, Sendable, CaseIterable {
  /// Nothing: the widget learns of it at its next reload.
  case none
  /// `WidgetCenter.reloadTimelines(ofKind:)`: every instance of the kind.
  case reloadKind = "reload_kind"
  /// `WidgetCenter.reloadAllTimelines()`: every widget of the app.
  case reloadAll = "reload_all"
}

/// How the data behind a widget kind changes.
public struct DataConfiguration: Sendable {
  /// Changes per hour (all day: the world does not sleep with the user).
  public var changes: HourlyRate
  public var onChange: DataChangeAction
  /// The pushes the server also sends on every change (`on_change: [push, silent_push]`): a WidgetKit push
  /// (alone, or with the app's reload); a background (silent) push, which launches the app in the
  /// background to fetch and reload (see ``LaunchingPushConfiguration``).
  public var pushes: Set<PushKind>
  /// Changes at a rate over clock windows, or in bursts; then `changes` is zero.
  public var scheduled: ScheduledChanges?

  public init(
    changes: HourlyRate = .zero, onChange: DataChangeAction = .none, pushes: Set<PushKind> = [],
    scheduled: ScheduledChanges? = nil
  ) {
    self.scheduled = scheduled
    self.changes = changes
    self.onChange = onChange
    self.pushes = pushes
  }
}

/// One widget of the scenario: a kind in a family at a placement, with its timeline provider.
public struct WidgetConfiguration: Sendable {
  public var id: String
  public var kind: String
  /// A widget or a control.
  public var surface: WidgetSurface
  public var family: WidgetFamily
  /// Every place the widget sits; each is its own configured widget (`instances` copies each), with its
  /// own budget [D].
  public var placements: [WidgetPlacement]
  /// Copies on the device; each has its own budget [D].
  public var instances: Int
  public var timeline: TimelineConfiguration
  public var build: BuildConfiguration
  public var data: DataConfiguration
  /// App Intent taps per day on an interactive widget (each: one immediate, exempt reload of the tapped
  /// instance [O]); 0 for a widget without buttons.
  public var tapsPerDay: Double
  /// Whether the configuration has a push handler (`.pushHandler` / `ControlPushHandler`): a WidgetKit push
  /// reloads only such configurations [D, WWDC25]. Implied by a WidgetKit push in `data.pushes`.
  public var pushHandler: Bool
  /// The `TimelineEntryRelevance` score of its entries by clock hour, for the Smart Stack's rotation [A]
  /// (1 everywhere unless given).
  public var relevance: HourlyRate

  public init(
    id: String, kind: String, surface: WidgetSurface = .widget, family: WidgetFamily = .systemMedium,
    placement: WidgetPlacement = .home, instances: Int = 1, timeline: TimelineConfiguration,
    build: BuildConfiguration = .init(), data: DataConfiguration = .init(), tapsPerDay: Double = 0,
    pushHandler: Bool? = nil, relevance: HourlyRate = HourlyRate(perHour: 1)
  ) {
    self.id = id
    self.kind = kind
    self.surface = surface
    self.family = family
    self.placements = [placement]
    self.pushHandler = pushHandler ?? data.pushes.contains(.widget)
    self.relevance = relevance
    self.instances = instances
    self.timeline = timeline
    self.build = build
    self.data = data
    self.tapsPerDay = tapsPerDay
  }

  /// The first (often the only) placement.
  public var placement: WidgetPlacement {
    get { placements[0] }
    set { placements = [newValue] }
  }

  /// The name of its data source: widgets share data by kind, controls by kind, and a control's kind is
  /// never a widget's (`ControlWidget` and `Widget` kinds are separate namespaces).
  public var dataKey: String { surface == .control ? "control:\(kind)" : kind }
}
