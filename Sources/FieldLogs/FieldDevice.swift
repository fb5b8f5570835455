import WidgetModel

/// What one phone's log showed, gathered in one pass over the logs (a phone's records in time order; phones
/// may interleave): the raw observations behind every estimator, kept per phone until the pass ends, when
/// the phone's waking hours (from its opens) decide which of them count.
struct FieldDevice {
  /// The local days the log covers, first and last.
  var firstDay = Int.max
  var lastDay = Int.min
  var firstTime: Int64 = .max
  var lastTime: Int64 = .min
  /// The last record other than a push's arrival: how far the log covers the server's sends. An arrival is
  /// a record only when the push came, so a log ending at one would keep a send that arrived and drop one
  /// that was lost (and read the loss low).
  var pushCoverageEnd: Int64 = .min
  /// Low Power Mode at the last battery line (the system's delay doubles while it is on).
  var lowPower = false
  /// The last battery line that gave the system no reason to refuse a background run.
  var lastFineBattery: Int64?
  /// When the battery first showed a reason to refuse since the pending request: the last fine line before
  /// it (the system's first try came no earlier, or it would have run).
  var refusalBound: Int64?
  /// App opens, in time order: one element an open, the time and its clock offset (its local second and day
  /// are read from them when the log ends).
  var opens: [FieldOpen] = []
  /// Opens whose log says whether they came from a widget tap, and those that did.
  var opensWithSource = 0
  var opensFromWidget = 0
  var foregroundSince: Int64?
  var lastBackground: Int64?
  /// Foreground stretches, in seconds.
  var sessions: [Double] = []
  /// The app's pending Background App Refresh request: when it asked (after a run, or on leaving the
  /// foreground), and whether the battery showed a reason to refuse a run since.
  var refreshSubmitted: Int64?
  /// Background App Refresh runs by local day, and the lateness of each request past its earliest date:
  /// exact for a run, a lower bound for a request the next open replaced before it ran.
  var refreshDays: [Int] = []
  var refreshLateness: [(seconds: Double, exact: Bool, submitted: Int64, submittedDay: Int)] = []
  /// Whether the battery showed Low Power Mode or a low charge since the last request (a refused run is
  /// tried again, so its lateness is not the system's first draw).
  var batteryRefusalSince = false
  /// When the app last saw something that could cause a reload (a call, an open, a push, a background run).
  var lastTrigger: Int64?
  var silentPushDays: [Int] = []
  var silentPushSecondsOfDay: [Double] = []
  /// When pushes reached the app (UTC microseconds), and what the server's log says it sent the phone.
  var silentPushTimes: [Int64] = []
  var widgetPushTimes: [Int64] = []
  var sends: [(time: Int64, push: PushKind)] = []
  /// The phone clock's offset ahead of UTC at its last record.
  var offsetSeconds = 0
  /// Per widget (kind and family): its last timeline and what happened since.
  var widgets: [String: FieldWidget] = [:]
  /// When the app last ran (an open, leaving the foreground, a background run, a silent push): its store was
  /// current then.
  var lastAppRun: Int64?
  /// The background wake (a run or a silent push) whose reload call, if any, has not come yet.
  var pendingWake: (time: Int64, wake: BackgroundWake)?
  /// Background wakes after an earlier run of the app, each with whether the app called for a reload.
  var wakes: [BackgroundWake] = []
  /// Policy lateness candidates (seconds past the policy's date), with the date (UTC microseconds) and its
  /// local second of day; `exact` false: a lower bound (the reload may have had another cause).
  var lateness: [(widget: String, seconds: Double, date: Int64, nextSecondOfDay: Double, exact: Bool)] = []
}

/// An app open: when (UTC microseconds) and the phone clock's offset then.
struct FieldOpen {
  let utcMicroseconds: Int64
  let offsetSeconds: Int32

  init(_ time: FieldLogTime) {
    utcMicroseconds = time.utcMicroseconds
    offsetSeconds = Int32(time.offsetSeconds)
  }

  var time: FieldLogTime { FieldLogTime(utcMicroseconds: utcMicroseconds, offsetSeconds: Int(offsetSeconds)) }
}

extension FieldDevice {
  /// When each open came (UTC microseconds).
  var openTimes: [Int64] { opens.map(\.utcMicroseconds) }
  /// Each open's local second of day.
  var openSecondsOfDay: [Double] { opens.map(\.time.localSecondOfDay) }
  /// Each open's local day.
  var openDays: [Int] { opens.map(\.time.localDay) }
}

/// One widget (a kind and a family) on one phone.
struct FieldWidget {
  var lastTime: Int64?
  var lastNext: Int64?
  var lastPolicy: String?
  var lastEntries: Int?
  /// Whether Low Power Mode was on at the last timeline (the delay then doubles: not `after_delay`'s own).
  var lastLowPower = false
  /// When something the app saw (a reload call, an open, a push, a background run) that could have caused
  /// a reload first happened since the last timeline (UTC microseconds).
  var firstTrigger: Int64?
  /// Timelines per local day.
  var perDay: [Int: Int] = [:]
  /// Timelines no foreground reload call could have caused (those spend budget), UTC microseconds; and those
  /// of them with nothing the app saw just before them.
  var budgetedTimes: [Int64] = []
  var untriggeredTimes: [Int64] = []
  /// When the app last called for a reload of this widget from the foreground since the last timeline (such
  /// a reload is exempt from the budget).
  var foregroundCall: Int64?
  /// Seconds between consecutive timelines.
  var gaps: [Double] = []
  /// Seconds from each timeline to the date its policy asked for.
  var requestedIntervals: [Double] = []

  /// The last timeline's date when its lateness is the system's `.after` delay: a policy that asks for a
  /// date, not in Low Power Mode (the delay is then longer, `after_delay_factor`), not a one-entry `.atEnd`
  /// (whose date the system picks).
  var policyDate: Int64? {
    guard lastPolicy != "never", !lastLowPower, !(lastPolicy == "at_end" && lastEntries == 1) else { return nil }
    return lastNext
  }
}
