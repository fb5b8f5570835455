import SimulationEngine

/// The person holding the phone: when they sleep, how often they look, open the app, listen to audio.
///
/// Views and app opens happen only while awake; rates are per awake hour unless stated.
public struct UserConfiguration: Sendable {
  public var sleep: SleepWindow
  /// Home Screen views (first page) per awake hour.
  public var homeScreenViews: HourlyRate
  /// Lock Screen views per awake hour (every pick-up shows it).
  public var lockScreenViews: HourlyRate
  /// Probability that a Home Screen view also visits another page ([assumption]).
  public var otherPageProbability: Double
  /// With the `fixed` rule: probability that a Smart Stack shows a given widget at a Home Screen view
  /// ([A]: 1 of 3).
  public var smartStackProbability: Double
  /// How the Smart Stack picks the widget it shows at a Home Screen view (see ``SmartStackRule``).
  public var smartStack: SmartStackConfiguration
  /// Control Center views per awake hour: where a Control Center control's staleness is measured [A: 1].
  public var controlCenterViews: HourlyRate
  /// Glances at the Dynamic Island per awake hour while the user is in other apps (0: no Dynamic Island).
  public var dynamicIslandViews: HourlyRate
  /// Share of Dynamic Island views that expand it (long press) rather than glance at the compact view [A].
  public var dynamicIslandExpandedShare: Double
  /// CarPlay drives per awake hour (iOS 26: CarPlay shows `systemSmall` widgets StandBy-style [D]); 0: none.
  public var carplayDrives: HourlyRate
  /// How long a drive lasts, in seconds.
  public var carplayDrive: Distribution
  /// Glances at the CarPlay widgets per hour of driving [A].
  public var carplayViewsPerHour: Double
  /// Glances at a StandBy display per hour asleep, when the phone charges at night.
  public var standbyViewsPerHour: Double
  /// App opens per day, spread over the waking hours.
  public var appOpensPerDay: Double
  /// Weights per local clock hour (24) over which the day's opens are spread, in proportion to each hour's
  /// weight times its waking share; nil: evenly over the waking hours [A]. `calibrate` fits it from logs
  /// whose opens bunch (an evening peak).
  public var appOpensProfile: [Double]?
  /// How long the app stays in the foreground after an open, in seconds.
  public var appSession: Distribution
  /// Share of app opens that come from a tap on one of its widgets ([A] 0.25): the app's reload requests
  /// are then ignored for `system.ignore_reloads_after_widget_open` [O].
  public var widgetOpenShare: Double
  /// Audio or navigation sessions per day (their app's reloads are exempt while one runs).
  public var audioSessionsPerDay: Double
  /// Length of an audio or navigation session, in seconds.
  public var audioSession: Distribution

  public init(
    sleep: SleepWindow = SleepWindow(from: TimeOfDay(hours: 23, minutes: 30), to: TimeOfDay(hours: 7, minutes: 0)),
    homeScreenViews: HourlyRate = HourlyRate(perHour: 6),
    lockScreenViews: HourlyRate = HourlyRate(perHour: 8),
    otherPageProbability: Double = 0.2,
    smartStackProbability: Double = 1.0 / 3.0, smartStack: SmartStackConfiguration = .init(),
    controlCenterViews: HourlyRate = HourlyRate(perHour: 1), dynamicIslandViews: HourlyRate = .zero,
    dynamicIslandExpandedShare: Double = 0.1, carplayDrives: HourlyRate = .zero,
    carplayDrive: Distribution = UserConfiguration.defaultDrive, carplayViewsPerHour: Double = 12,
    standbyViewsPerHour: Double = 0.5,
    appOpensPerDay: Double = 4,
    appSession: Distribution = UserConfiguration.defaultAppSession, widgetOpenShare: Double = 0.25,
    audioSessionsPerDay: Double = 0,
    audioSession: Distribution = UserConfiguration.defaultAudioSession
  ) {
    self.sleep = sleep
    self.homeScreenViews = homeScreenViews
    self.lockScreenViews = lockScreenViews
    self.otherPageProbability = otherPageProbability
    self.smartStackProbability = smartStackProbability
    self.smartStack = smartStack
    self.controlCenterViews = controlCenterViews
    self.dynamicIslandViews = dynamicIslandViews
    self.dynamicIslandExpandedShare = dynamicIslandExpandedShare
    self.carplayDrives = carplayDrives
    self.carplayDrive = carplayDrive
    self.carplayViewsPerHour = carplayViewsPerHour
    self.standbyViewsPerHour = standbyViewsPerHour
    self.appOpensPerDay = appOpensPerDay
    self.appSession = appSession
    self.widgetOpenShare = widgetOpenShare
    self.audioSessionsPerDay = audioSessionsPerDay
    self.audioSession = audioSession
  }

  // Literal, valid parameters: the factories cannot throw.
  public static let defaultAppSession = try! Distribution.lognormal(median: 90, sigma: 0.8)
  public static let defaultAudioSession = try! Distribution.lognormal(median: 1_800, sigma: 0.6)
  public static let defaultDrive = try! Distribution.lognormal(median: 1_200, sigma: 0.6)
}

/// How a Smart Stack chooses what it shows. Relevance is one input on iOS, "not the only factor" [D]; both
/// rules are our assumptions [A].
public enum SmartStackRule: String, Sendable, CaseIterable {
  /// One widget of the stack per Home Screen view, each with probability proportional to its relevance at
  /// that clock hour; the stack's other apps' widgets have `other_relevance`.
  case relevance
  /// Each widget in a stack is shown with `user.smart_stack_probability`, independently (the old rule).
  case fixed
}

/// The user's Smart Stack: every `smart_stack` widget of the app sits in one stack of `size` widgets.
public struct SmartStackConfiguration: Sendable {
  public var rule: SmartStackRule
  /// Widgets in the stack, the app's and other apps' ([A] 3).
  public var size: Int
  /// The relevance of each other app's widget in the stack ([A] 1, as the app's own by default).
  public var otherRelevance: Double

  public init(rule: SmartStackRule = .relevance, size: Int = 3, otherRelevance: Double = 1) {
    self.rule = rule
    self.size = size
    self.otherRelevance = otherRelevance
  }
}

extension UserConfiguration {
  /// App opens per awake hour in clock hour `hour`: `appOpensPerDay` spread evenly over the waking hours, or
  /// in proportion to ``appOpensProfile``'s weights over them (so a day still holds `appOpensPerDay`).
  public func appOpensPerAwakeHour(_ hour: Int) -> Double {
    guard let profile = appOpensProfile else { return appOpensPerDay / sleep.awakeHours }
    let total = (0..<24).reduce(0.0) { $0 + profile[$1] * sleep.awakeFraction(ofHour: $1) }
    // A phone whose own waking hours (a fleet's spread of sleep) hold no weight opens evenly, keeping per_day.
    return total > 0 ? appOpensPerDay * profile[hour] / total : appOpensPerDay / sleep.awakeHours
  }

}
