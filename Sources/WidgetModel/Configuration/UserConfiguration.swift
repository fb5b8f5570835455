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
  /// Probability that a Smart Stack shows a given widget at a Home Screen view ([assumption]: 1 of 3).
  public var smartStackProbability: Double
  /// Glances at a StandBy display per hour asleep, when the phone charges at night.
  public var standbyViewsPerHour: Double
  /// App opens per day, spread over the waking hours.
  public var appOpensPerDay: Double
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
    smartStackProbability: Double = 1.0 / 3.0,
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
}
