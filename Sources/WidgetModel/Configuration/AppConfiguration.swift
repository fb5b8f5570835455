import SimulationEngine

/// The host app: what its own fetch costs, and the channels that run it while the user is not using it.
///
/// The app can call `reloadTimelines` only while it runs [D]: in the foreground, in an audio or navigation
/// session, or when the system launches it in the background (Background App Refresh, a background push).
/// A change on the server while it sleeps waits for the next of these. Every default is documented, with
/// its source, in Scenarios/README.md.
public struct AppConfiguration: Sendable {
  /// The idealised upper bound (`app.always_running`): the app learns of every change at once, as if it
  /// always ran in the background, and reloads as `data.on_change` says. For comparison only.
  public var alwaysRunning: Bool
  /// The app's own fetch of its data (every run fetches once, for every widget kind).
  public var fetch: AppFetchConfiguration
  public var backgroundRefresh: BackgroundRefreshConfiguration
  /// Times per day the user swipes the app away in the App Switcher (during waking hours): no background
  /// launch until the next open [D] (frequency [A], default 0).
  public var forceQuitsPerDay: Double
  /// Whether reloads the app asks for while running in the background (background refresh, silent push,
  /// `always_running`) spend budget. Unresolved [D]: the documentation exempts only the foreground and
  /// audio/navigation sessions; a WWDC25 remark calls app reloads unbudgeted. Default budgeted.
  public var backgroundReloads: TriggerBudget
  /// How long a background launch may run before the system ends it ([D] about 30 s): a fetch that takes
  /// longer writes nothing and reloads nothing.
  public var backgroundTimeLimit: SimDuration
  /// What the app reloads when the user opens it (and when an audio session starts) [A: apps differ].
  public var onOpen: AppOpenReload = .reloadAll
  /// How long after the user last launched the app the system stops launching it in the background:
  /// silent pushes are not delivered to it and Background App Refresh does not run until the user opens it
  /// again ([D] Apple staff, forums thread 776933: "if the user has not launched the app for a while"; the
  /// period is not published, [A] default 3 days). Only a foreground open by the user counts as a launch;
  /// the start of the run counts as one (the install). nil (`app.dormant_after: none`): never dormant.
  public var dormantAfter: SimDuration? = AppConfiguration.defaultDormantAfter
  /// How the app, while it runs, learns of a fleet event's change (`app.event_updates`) [A: apps differ;
  /// by default it holds no live connection].
  public var eventUpdates: EventUpdates = .nextFetch

  /// `app.dormant_after`'s default: "a while" read as a few days [A].
  public static let defaultDormantAfter = SimDuration.days(3)

  public init(
    alwaysRunning: Bool = false, fetch: AppFetchConfiguration = .init(),
    backgroundRefresh: BackgroundRefreshConfiguration = .init(),
    forceQuitsPerDay: Double = 0, backgroundReloads: TriggerBudget = .budgeted,
    backgroundTimeLimit: SimDuration = .seconds(30)
  ) {
    self.alwaysRunning = alwaysRunning
    self.fetch = fetch
    self.backgroundRefresh = backgroundRefresh
    self.forceQuitsPerDay = forceQuitsPerDay
    self.backgroundReloads = backgroundReloads
    self.backgroundTimeLimit = backgroundTimeLimit
  }
}

/// What the app reloads when it comes to the foreground.
public enum AppOpenReload: Sendable, Hashable {
  /// `reloadAllTimelines()` and `reloadAllControls()`: every widget and control.
  case reloadAll
  /// `reloadTimelines(ofKind:)` / `reloadControls(ofKind:)` for these kinds (widget or control kinds).
  case reloadKinds([String])
  /// Nothing: the widgets learn of the open's fetch at their next reload.
  case none
}

/// How the app, while it runs in the foreground or an audio session, learns that a fleet event (`events`)
/// changed its data. Which one a real app does is its design; no source gives a share [A]. The choice
/// decides whether an event makes every open app fetch in its second, a spike the servers must absorb.
public enum EventUpdates: String, Sendable, CaseIterable {
  /// A live connection (a WebSocket, a server-sent event stream): the app fetches and reloads as
  /// `data.on_change` says in the event's second.
  case live
  /// No connection: the change waits for the app's next fetch of its own (the next open or audio session, a
  /// background refresh, or the event's silent push when the kind's data sends one).
  case nextFetch = "next_fetch"
}

/// One fetch by the app (not the widget): it writes the latest data of every kind to the App Group store.
public struct AppFetchConfiguration: Sendable {
  /// Bytes fetched ([A] as a widget's default fetch).
  public var bytes: Distribution
  /// CPU time of the app's run around the fetch (parse, write the store), in seconds ([A]).
  public var cpuSeconds: Distribution

  public init(
    bytes: Distribution = BuildConfiguration.defaultFetch, cpuSeconds: Distribution = AppFetchConfiguration.defaultCPU
  ) {
    self.bytes = bytes
    self.cpuSeconds = cpuSeconds
  }

  public static let defaultCPU = try! Distribution.lognormal(median: 0.3, sigma: 0.5)  // literal, valid
}

/// Background App Refresh (`BGAppRefreshTask`): the app asks to run no earlier than `interval` after its
/// last run; the system decides when [D]. Frequencies are not published [F], so the rule is ours [A]:
///
/// the run comes `interval` after the request plus a lateness drawn from an exponential whose mean is
/// `delay × max(1, reference_opens / opens)`, where `opens` is the app's opens per day over the last 7
/// days. An app opened `reference_opens` times a day or more runs about every `interval + delay`; one
/// opened once a day a few times a day [O: "a few times a day to hourly"]. No run in Low Power Mode, below
/// `low_battery` unless charging, after a force-quit until the next open, with the user's setting off, or
/// past `per_day` runs in a clock day [D for the conditions; thresholds as documented].
public struct BackgroundRefreshConfiguration: Sendable {
  /// Whether the app schedules background refresh at all (`app.background_refresh` present).
  public var enabled: Bool
  /// `earliestBeginDate` past each run (and past each foreground session) [D: an earliest date].
  public var interval: SimDuration
  /// A daily local window the app asks for runs in: outside it, its `earliestBeginDate` is the window's
  /// next start (a market-hours app); nil: all day.
  public var activeWindow: SleepWindow?
  /// Share of devices whose user left Background App Refresh on for the app ([A] default 1: it is on
  /// unless turned off).
  public var enabledProbability: Double
  /// Mean lateness past the earliest date for a frequently used app ([A] 45 min).
  public var delay: SimDuration
  /// Opens per day at which an app counts as frequently used ([A] 10).
  public var referenceOpensPerDay: Double
  /// Runs per clock day at most (the system's daily budget [D]; value [A] 24).
  public var perDay: Double
  /// Battery level below which no run is granted unless charging ([D] WWDC20: "critically low battery
  /// (<20%)": essential work only).
  public var lowBattery: Double

  public init(
    enabled: Bool = false, interval: SimDuration = .minutes(15), activeWindow: SleepWindow? = nil,
    enabledProbability: Double = 1,
    delay: SimDuration = .minutes(45), referenceOpensPerDay: Double = 10, perDay: Double = 24,
    lowBattery: Double = 0.2
  ) {
    self.enabled = enabled
    self.interval = interval
    self.activeWindow = activeWindow
    self.enabledProbability = enabledProbability
    self.delay = delay
    self.referenceOpensPerDay = referenceOpensPerDay
    self.perDay = perDay
    self.lowBattery = lowBattery
  }
}

/// Background (silent) pushes (`content-available: 1`, priority 5): the server sends one on every change
/// of a kind with `data.on_change: silent_push`; each delivered one launches the app in the background to
/// fetch and reload [D]. APNs keeps one undelivered push per app, usually the latest [D].
public struct LaunchingPushConfiguration: Sendable {
  /// Launches per sliding hour at most; a push past it is held (one kept) until the hour allows it ([D]
  /// "no more than two or three an hour").
  public var perHour: Double
  /// Launches per sliding 24 h at most (the device-wide daily budget [O]; value [A] 48).
  public var perDay: Double
  /// Delivery delay after sending, in seconds: priority 5 is delivered opportunistically, "might get
  /// grouped and delivered in bursts" [D]; distribution [A] exponential, mean 5 min.
  public var delay: Distribution
  /// The share of pushes APNs never delivers (a phone off or out of reach past the push's expiry, an expired
  /// token): [A] 0. A lost push still replaces the one held before it (APNs keeps the newest), then never
  /// arrives. `calibrate` fits it from the server's send log.
  public var loss: Double = 0

  public init(perHour: Double = 3, perDay: Double = 48, delay: Distribution = LaunchingPushConfiguration.defaultDelay) {
    self.perHour = perHour
    self.perDay = perDay
    self.delay = delay
  }

  public static let defaultDelay = try! Distribution.exponential(mean: 300)  // literal, valid
}
