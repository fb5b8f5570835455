import SimulationEngine

/// What iOS itself does around reloads, beyond the budget.
public struct SystemConfiguration: Sendable {
  /// Lateness of `.after` / `.atEnd` reloads past their earliest date, in seconds ([O] minutes to 1-2 h;
  /// default exponential, mean 4 min [assumption]).
  public var afterDelay: Distribution
  /// When a one-entry `.atEnd` timeline asks for its next reload: the system chooses [D: WWDC21 "Principles
  /// of great widgets"]; modelled as a delay past the reload, in seconds (default exponential, mean 30 min
  /// [A]). `after_delay` applies on top.
  public var atEndSingleEntryDelay: Distribution
  /// A budgeted reload pulls other instances' policy reloads due within this window forward to run with it
  /// ([D] "may coalesce"; width [assumption], 0 = off).
  public var coalesceWindow: SimDuration
  /// Whether budgeted reloads requested while the user sleeps wait until they wake ([assumption] drawn
  /// from a third-party rule of thumb "4 reloads/hour ~ 48/day", which counts waking hours only).
  public var deferWhileAsleep: Bool
  /// Locale, accessibility, time-zone and similar changes per day: each reloads every widget, exempt.
  public var environmentChangesPerDay: Double
  /// Reboots per day: each reloads every widget, exempt ([F]).
  public var rebootsPerDay: Double
  /// How often a StandBy display refreshes its widgets while showing them ([D] "system-defined rate";
  /// value [assumption]).
  public var standbyRefreshInterval: SimDuration
  /// Whether the phone charges on a nightstand in StandBy during the sleep window (StandBy widgets are
  /// visible only then).
  public var standbyAtNight: Bool
  /// Whether each instance gets its exempt "widget added" reload at the start ([F]); without it an instance
  /// shows its placeholder until its first reload.
  public var widgetAddedReload: Bool
  /// Peak memory above which a widget extension is killed (jetsam): [O] `EXC_RESOURCE ... limit=30 MB`
  /// crash logs, where MB means MiB, so 31,457,280 bytes. A build at exactly the ceiling survives.
  public var memoryCeilingBytes: Double
  /// Probability that a jetsam leaves the instance stuck (every reload fails without building) until the
  /// app is next opened ([O] "may stay stuck until the app is relaunched"; rate unknown, default 0).
  public var jetsamStuckProbability: Double
  /// Delay between the app's `reloadTimelines` call and the reload request reaching WidgetKit, in seconds:
  /// the call "schedules a reload" and a delay is expected [D, staff; no figure]; default [A] exponential,
  /// mean 5 s.
  public var appReloadDelay: Distribution
  /// After an app open from a widget tap, the app's reload requests are ignored this long ([O] ~30 s).
  public var ignoreReloadsAfterWidgetOpen: SimDuration
  public var network: NetworkConfiguration
  public var widgetPush: WidgetPushConfiguration
  /// How the device throttles and delays each push kind that launches the app (``PushKind/launching``),
  /// read from the kind's ``PushKindRow/capsSection`` under `system`.
  public private(set) var launchingPushes: [PushKind: LaunchingPushConfiguration]
  public var liveActivities: LiveActivitySystemConfiguration
  /// Reloads a day each control may spend (`system.controls.budget`); nil: unbudgeted. Apple publishes no
  /// budget for controls [F]: off by default.
  public var controlBudgetPerDay: Double? = nil

  public init(
    afterDelay: Distribution = SystemConfiguration.defaultAfterDelay,
    atEndSingleEntryDelay: Distribution = SystemConfiguration.defaultSingleEntryDelay,
    coalesceWindow: SimDuration = .zero,
    deferWhileAsleep: Bool = true, environmentChangesPerDay: Double = 0.02, rebootsPerDay: Double = 0.03,
    standbyRefreshInterval: SimDuration = .minutes(15), standbyAtNight: Bool = true, widgetAddedReload: Bool = true,
    memoryCeilingBytes: Double = 30 * 1_048_576, jetsamStuckProbability: Double = 0,
    appReloadDelay: Distribution = SystemConfiguration.defaultAppReloadDelay,
    ignoreReloadsAfterWidgetOpen: SimDuration = .seconds(30),
    network: NetworkConfiguration = .init(), widgetPush: WidgetPushConfiguration = .init(),
    launchingPushes: [PushKind: LaunchingPushConfiguration] = SystemConfiguration.defaultLaunchingPushes,
    liveActivities: LiveActivitySystemConfiguration = .init()
  ) {
    self.afterDelay = afterDelay
    self.atEndSingleEntryDelay = atEndSingleEntryDelay
    self.coalesceWindow = coalesceWindow
    self.deferWhileAsleep = deferWhileAsleep
    self.environmentChangesPerDay = environmentChangesPerDay
    self.rebootsPerDay = rebootsPerDay
    self.standbyRefreshInterval = standbyRefreshInterval
    self.standbyAtNight = standbyAtNight
    self.widgetAddedReload = widgetAddedReload
    self.memoryCeilingBytes = memoryCeilingBytes
    self.jetsamStuckProbability = jetsamStuckProbability
    self.appReloadDelay = appReloadDelay
    self.ignoreReloadsAfterWidgetOpen = ignoreReloadsAfterWidgetOpen
    self.network = network
    self.widgetPush = widgetPush
    // Every launching kind has its caps (the defaults where none are given), and no other kind has any.
    self.launchingPushes = SystemConfiguration.defaultLaunchingPushes.merging(
      launchingPushes.filter { $0.key.row.launches != nil }, uniquingKeysWith: { $1 })
    self.liveActivities = liveActivities
  }

  public static let defaultAfterDelay = try! Distribution.exponential(mean: 240)  // literal, valid
  public static let defaultAppReloadDelay = try! Distribution.exponential(mean: 5)  // literal, valid
  public static let defaultSingleEntryDelay = try! Distribution.exponential(mean: 1_800)  // literal, valid
  /// Every push kind that launches the app, with ``LaunchingPushConfiguration``'s defaults.
  public static let defaultLaunchingPushes = Dictionary(
    uniqueKeysWithValues: PushKind.launching.map { ($0, LaunchingPushConfiguration()) })
}

extension SystemConfiguration {
  /// The caps and delay of a push kind that launches the app; nil for one that does not.
  public func launchingPush(_ kind: PushKind) -> LaunchingPushConfiguration? { launchingPushes[kind] }

  /// Sets the caps of `kind`, a push kind that launches the app (``PushKind/launching``).
  public mutating func setLaunchingPush(_ caps: LaunchingPushConfiguration, for kind: PushKind) {
    precondition(kind.row.launches != nil, "\(kind) pushes do not launch the app")
    launchingPushes[kind] = caps
  }

  /// How the device throttles and delays background (silent) pushes (`system.silent_push`).
  public var silentPush: LaunchingPushConfiguration {
    get { launchingPushes[.silent] ?? LaunchingPushConfiguration() }
    set { setLaunchingPush(newValue, for: .silent) }
  }
}
