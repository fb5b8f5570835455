/// What each colour of the device timeline means. One colour has one meaning across every row: a reload
/// request and the reload it led to share their outcome's colour, and nothing else does; the content-age
/// lines have colours of their own. Colours from Tableau 20 (readable on the light and the dark page), with
/// stronger tones (Open Color's 7th to 9th shades) for the lines. Legend names are short; the caption says
/// which outcomes each groups.
extension DeviceTimeline {
  /// Every meaning, in the legend's order, with its colour.
  static let palette: [(meaning: String, color: String)] = [
    (Meaning.freshView, "#59a14f"), (Meaning.staleView, "#e15759"), (Meaning.placeholderView, "#79706e"),
    (Meaning.reloadAtOnce, "#4e79a7"), (Meaning.reloadAfterWait, "#a0cbe8"), (Meaning.reloadFailed, "#9d7660"),
    (Meaning.requestNotBuilt, "#bab0ac"), (Meaning.dataChange, "#f28e2b"), (Meaning.appInUse, "#499894"),
    (Meaning.forceQuit, "#d7b5a6"), (Meaning.wakeRan, "#86bcb6"), (Meaning.wakeRefused, "#ff9d9a"),
    (Meaning.pushSent, "#d4a6c8"), (Meaning.pushDelivered, "#b07aa1"), (Meaning.radioTransfer, "#d37295"),
    (Meaning.radioTail, "#fabfd2"), (Meaning.lowPowerMode, "#f1ce63"), (Meaning.charging, "#8cd17d"),
    (Meaning.switchedOff, "#b6992d"),
  ]

  /// The content-age lines' colours, one per widget in lane order (none of them in ``palette``).
  static let lineColors = [
    "#4263eb", "#ae3ec9", "#1098ad", "#e8590c", "#2b8a3e", "#c2255c", "#5c940d", "#7048e8", "#e67700", "#1864ab",
    "#862e9c", "#087f5b",
  ]

  /// The battery's line: the power rows' family (Low Power Mode, charging), not a legend entry of its own.
  static let batteryColor = "#c9a227"

  /// The legend's names for what a mark means.
  enum Meaning {
    static let freshView = "fresh view"
    static let staleView = "stale view"
    static let placeholderView = "placeholder"
    static let reloadAtOnce = "reload at once"
    static let reloadAfterWait = "reload after a wait"
    static let reloadFailed = "reload failed"
    static let requestNotBuilt = "request not built"
    static let dataChange = "data change"
    static let appInUse = "app in use"
    static let forceQuit = "app swiped away"
    static let wakeRan = "app woken"
    static let wakeRefused = "app wake refused"
    static let pushSent = "push sent"
    static let pushDelivered = "push delivered"
    static let radioTransfer = "radio transfer"
    static let radioTail = "radio tail"
    static let lowPowerMode = "Low Power Mode"
    static let charging = "charging"
    static let switchedOff = "switched off"

    /// A content-age line's name.
    static func contentAge(_ widget: String) -> String { "content age: \(widget)" }
  }

  /// The meaning of a request's or a reload's outcome (as reloads.csv names it).
  static func meaning(ofOutcome outcome: String) -> String {
    switch outcome {
    case "granted_budget", "granted_exempt": Meaning.reloadAtOnce
    case "withheld_granted", "deferred_granted": Meaning.reloadAfterWait
    case "jetsam", "timeout", "stuck": Meaning.reloadFailed
    default: Meaning.requestNotBuilt
    }
  }

  /// The meaning of an app wake's outcome (as app_wakes.csv names it).
  static func meaning(ofWake outcome: String) -> String {
    outcome == "granted" || outcome == "deferred" ? Meaning.wakeRan : Meaning.wakeRefused
  }

  /// The colour scale of every layer: the meanings this day's marks have, in the palette's order, then the
  /// content-age lines'. The legend lists only these.
  func colorScale() -> (domain: [String], range: [String]) {
    var used = Set(spans.map(\.what))
    for marks in [views, requests, events] { used.formUnion(marks.map(\.what)) }
    let present = DeviceTimeline.palette.filter { used.contains($0.meaning) }
    let lines = contentWidgets.enumerated().map {
      (Meaning.contentAge($0.element), DeviceTimeline.lineColors[$0.offset % DeviceTimeline.lineColors.count])
    }
    return (present.map(\.meaning) + lines.map(\.0), present.map(\.color) + lines.map(\.1))
  }
}
