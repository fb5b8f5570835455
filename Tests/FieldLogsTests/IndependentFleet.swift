import SimulationEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The truth of the independent field logs (``IndependentPhone`` makes each phone's log from it): a fleet
/// described in the documentation's words, with the values the calibration must recover. Times are seconds
/// since ``LocalClockText/epochSeconds`` (UTC); times of day are local.
enum IndependentFleet {
  static let phones = 80
  static let days = 21
  /// Six UTC offsets, one a half hour (India), the phones dealt round them.
  static let offsetsSeconds = [-28_800, -18_000, 0, 3_600, 19_800, 32_400]
  /// Each person's own open rate: lognormal with this median (a day) and sigma.
  static let opensMedianPerDay = 5.0
  static let opensSigma = 0.4
  /// The share of opens between 18:00 and 22:00 local (four hours of the sixteen awake hold 40%).
  static let eveningShare = 0.4
  static let sessionMedianSeconds = 120.0
  static let sessionSigma = 0.7
  static let widgetOpenShare = 0.3
  /// Everyone sleeps 23:00-07:00 local.
  static let sleepFromSeconds = 23.0 * 3_600
  static let wakeSeconds = 7.0 * 3_600
  /// The widget's policy: `.after(now + 1 h)`, 16 reloads a waking day, far below the budget's minimum of 40.
  static let policyAfterSeconds = 3_600.0
  /// The system's lateness past a policy date: lognormal, median 6 min.
  static let latenessMedianSeconds = 360.0
  static let latenessSigma = 0.8
  /// Background App Refresh: `interval` 1 h (the base scenario's), `delay` 30 min, `reference_opens` 8.
  static let refreshIntervalSeconds = 3_600.0
  static let refreshDelaySeconds = 1_800.0
  static let referenceOpens = 8.0
  /// `app.dormant_after`: past this long without an open a request due ends and a push is not delivered.
  static let dormantAfterSeconds = 3 * 86_400.0
  /// Silent pushes: gamma delay (shape 2) of mean 90 s, 15% never delivered.
  static let pushShape = 2.0
  static let pushMeanDelaySeconds = 90.0
  static let pushLoss = 0.15

  /// The true values by fit.csv key.
  static var truth: [(key: String, value: Double)] {
    [
      ("user.app_opens.per_day", opensMedianPerDay * exp(opensSigma * opensSigma / 2)),
      ("fleet.vary[user.app_opens.per_day].median", opensMedianPerDay),
      ("fleet.vary[user.app_opens.per_day].sigma", opensSigma),
      ("user.widget_open_share", widgetOpenShare),
      ("user.app_opens.session.median", sessionMedianSeconds),
      ("user.app_opens.session.sigma", sessionSigma),
      ("user.sleep.from", sleepFromSeconds),
      ("user.sleep.to", wakeSeconds),
      ("system.after_delay.mean", latenessMedianSeconds * exp(latenessSigma * latenessSigma / 2)),
      ("system.after_delay.median", latenessMedianSeconds),
      ("system.after_delay.sigma", latenessSigma),
      ("app.background_refresh.delay", refreshDelaySeconds),
      ("app.background_refresh.reference_opens", referenceOpens),
      ("system.silent_push.delay.mean", pushMeanDelaySeconds),
      ("system.silent_push.loss", pushLoss),
    ]
      + (7..<23).map { hour in
        // 40% over the four evening hours, 60% over the other twelve waking hours.
        ("user.app_opens.profile[\(hour < 10 ? "0" : "")\(hour)]", (18..<22).contains(hour) ? 0.1 : 0.05)
      }
  }

  /// The fleet's silent pushes: every phone is sent one at the same instants (a fleet event), at gaps of
  /// 1 h plus an exponential of mean 2 h, so that the caps (3 an hour, 48 a day) never hold one.
  static func sends(_ random: RandomStream) -> [Double] {
    var (time, sends) = (-14.0 * 3_600, [Double]())
    while time < Double(days) * 86_400 + 14 * 3_600 {
      time += 3_600 + random.exponential(mean: 7_200)
      sends.append(time)
    }
    return sends
  }

  /// The seed's app log (JSON Lines, each phone's lines together as its file would be) and server send log
  /// (CSV).
  /// `bedtimeSpreadSeconds` above 0 varies each night's bedtime (uniform over that many seconds before
  /// 23:00): the sleep window's truth is then no longer one time, but `after_delay`'s still is.
  static func logs(seed: UInt64, bedtimeSpreadSeconds: Double = 0) -> (app: String, server: String) {
    let sends = IndependentFleet.sends(RandomStream(seed: StreamSeed(scenarioSeed: seed, stream: 1)))
    var (app, server) = ("", "t,device,push,priority\n")
    for index in 0..<phones {
      var phone = IndependentPhone(
        index: index, offsetSeconds: offsetsSeconds[index % offsetsSeconds.count],
        random: RandomStream(seed: StreamSeed(scenarioSeed: seed, entity: UInt64(index) + 1)),
        bedtimeSpreadSeconds: bedtimeSpreadSeconds)
      app += phone.log(sends: sends)
      // The server sends every phone every event, before its log and after it too.
      for send in sends {
        server += "\(LocalClockText.text(send, offsetSeconds: 0)),\(phone.device),silent,5\n"
      }
    }
    return (app, server)
  }
}
