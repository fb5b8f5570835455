import SimulationEngine

/// One phone of ``IndependentFleet``, made from docs/field-logs.md and docs/model.md alone (none of the
/// model's code): its person's opens, its widget's timelines, its app's Background App Refresh runs and
/// silent pushes, written as the app would log them (docs/field-logs.md "The format"), with a battery line
/// every hour. Times are seconds since ``LocalClockText/epochSeconds`` (UTC).
struct IndependentPhone {
  typealias Fleet = IndependentFleet
  let device: String
  let offsetSeconds: Int
  let random: RandomStream
  /// The log's first record (local midnight of its first day) and last (21 days on).
  let start: Double
  let end: Double
  /// The person's own open rate (a day).
  let opensPerDay: Double
  /// Each local day's bedtime (seconds since midnight): 23:00, or with a bedtime spread, uniform over that
  /// many seconds before it, night by night.
  let bedtimes: [Double]
  /// The app calls `reloadAllTimelines()` this long after entering the foreground, and the widget's
  /// timeline follows as long after the call.
  static let callLagSeconds = 0.5
  private var lines: [(time: Double, order: Int, text: String)] = []

  /// An app open: when, when the app left the foreground, and whether a widget tap opened it.
  struct Open {
    let time: Double
    let end: Double
    let fromWidget: Bool
  }

  init(index: Int, offsetSeconds: Int, random: RandomStream, bedtimeSpreadSeconds: Double = 0) {
    let hex = Array("0123456789abcdef")
    let digits = String((0..<32).map { _ in hex[random.integer(below: 16)] })
    let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
      String(digits.dropFirst(range.lowerBound).prefix(range.count))
    }
    device = parts.joined(separator: "-")
    self.offsetSeconds = offsetSeconds
    self.random = random
    start = -Double(offsetSeconds)
    end = start + Double(Fleet.days) * 86_400
    opensPerDay = random.lognormal(median: Fleet.opensMedianPerDay, sigma: Fleet.opensSigma)
    // Drawn from a stream of their own, so that a spread leaves every other draw as it was.
    let nights = RandomStream(seed: StreamSeed(scenarioSeed: random.seed.key, stream: 1))
    bedtimes = (0...Fleet.days).map { _ in Fleet.sleepFromSeconds - bedtimeSpreadSeconds * nights.uniform() }
  }

  /// The phone's log: every line in time order, each ending in a newline.
  mutating func log(sends: [Double]) -> String {
    let opens = makeOpens()
    for open in opens {
      add(open.time, "app_foreground", "\"from_widget\":\(open.fromWidget)")
      // The app reloads its widgets whenever it comes to the foreground.
      add(open.time + Self.callLagSeconds, "reload_call", "\"kind\":null")
      add(open.end, "app_background")
    }
    widget(opens)
    backgroundRefresh(opens)
    silentPushes(sends, opens: opens)
    battery()
    return lines.sorted { ($0.time, $0.order) < ($1.time, $1.order) }.map { $0.text + "\n" }.joined()
  }

  /// A line at `time`, unless past the log's end.
  mutating func add(_ time: Double, _ event: String, _ fields: String = "") {
    guard time <= end else { return }
    let text =
      "{\"t\":\"\(LocalClockText.text(time, offsetSeconds: offsetSeconds))\",\"device\":\"\(device)\","
      + "\"event\":\"\(event)\"\(fields.isEmpty ? "" : ",")\(fields)}"
    lines.append((time, lines.count, text))
  }

  /// Seconds since local midnight at `time`.
  func localSecond(_ time: Double) -> Double {
    ((time + Double(offsetSeconds)).truncatingRemainder(dividingBy: 86_400) + 86_400)
      .truncatingRemainder(dividingBy: 86_400)
  }

  func asleep(_ time: Double) -> Bool {
    let second = localSecond(time)
    // The log starts at local midnight of day 0.
    let day = Int(((time - start) / 86_400).rounded(.down))
    return second < Fleet.wakeSeconds || second >= bedtimes[Swift.max(0, Swift.min(day, Fleet.days))]
  }

  /// The next local wake-up after `time` (while asleep).
  func nextWake(_ time: Double) -> Double {
    time + (Fleet.wakeSeconds - localSecond(time) + 86_400).truncatingRemainder(dividingBy: 86_400)
  }

  /// Each day a Poisson number of opens at the person's rate, 40% between 18:00 and 22:00 local and the rest
  /// evenly over the other waking hours (07:00-18:00, 22:00-23:00); an open that would come while the app is
  /// still in the foreground comes a second after the person leaves it.
  func makeOpens() -> [Open] {
    var times: [Double] = []
    for day in 0..<Fleet.days {
      for _ in 0..<random.poisson(mean: opensPerDay) {
        let other = random.uniform() * 12 * 3_600
        let second =
          random.uniform() < Fleet.eveningShare
          ? 18 * 3_600 + random.uniform() * 4 * 3_600 : (other < 11 * 3_600 ? 7 * 3_600 + other : 11 * 3_600 + other)
        if second < bedtimes[day] { times.append(start + Double(day) * 86_400 + second) }
      }
    }
    var (opens, free) = ([Open](), start)
    for time in times.sorted() {
      let at = Swift.max(time, free + 1)
      let session = random.lognormal(median: Fleet.sessionMedianSeconds, sigma: Fleet.sessionSigma)
      opens.append(Open(time: at, end: at + session, fromWidget: random.uniform() < Fleet.widgetOpenShare))
      free = at + session
    }
    return opens.filter { $0.time < end }
  }
}
