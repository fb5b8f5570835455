/// What a set of field logs shows, summed up per phone: the samples the estimators fit and the goodness of
/// fit compares. Built by ``FieldObservations/finish()``; the same for a real log and a simulated one.
public struct FieldSample: Sendable {
  /// A policy lateness: seconds past the date the policy asked for, exact or a lower bound, and how many
  /// reloads a waking day the widget's policy asks for.
  public struct Lateness: Sendable {
    public let seconds: Double
    public let exact: Bool
    public let requestedPerDay: Double
  }

  /// A Background App Refresh request: its lateness past the earliest date (exact for a run, a lower bound
  /// for one the next open replaced), and the app's opens a day over the 7 days before it (today so far
  /// included); only requests made 6 days or more into the phone's log.
  public struct RefreshLateness: Sendable {
    public let seconds: Double
    /// False: a lower bound (the user opened the app first, which replaces the request).
    public let exact: Bool
    public let opensPerDay: Double
  }

  /// A phone's waking hours as its opens show them (seconds since local midnight), with the end-point
  /// correction for opens spread evenly over them.
  public struct Waking: Sendable {
    public let wake: Double
    public let sleep: Double
    public let opens: Int
  }

  public let devices: Int
  public let deviceDays: Int
  /// The longest stretch of local days one phone's log covers.
  public let days: Int
  public let opensPerDeviceDay: [Double]
  /// Per phone: its opens and the days its log covers.
  public let opensPerPhone: [(opens: Int, days: Int)]
  public let opensByHour: [Int]
  public let sessions: [Double]
  public let opensWithSource: Int
  public let opensFromWidget: Int
  public let waking: [Waking]
  public let lateness: [Lateness]
  public let refreshes: [RefreshLateness]
  public let refreshesPerDeviceDay: [Double]
  public let silentPushesPerDeviceDay: [Double]
  public let silentPushSecondsOfDay: [Double]
  public let widgetPushes: Int
  public let reloadsPerInstanceDay: [Double]
  public let reloadGaps: [Double]

  /// Phones need this many opens before their waking hours are read from them.
  public static let minimumOpensForWaking = 5

  init(_ phones: [FieldDevice], refreshIntervalSeconds: Double) {
    devices = phones.count
    var days = 0
    var opens: [Double] = []
    var byHour = Array(repeating: 0, count: 24)
    var refreshesPerDay: [Double] = []
    var silentPerDay: [Double] = []
    var reloadsPerDay: [Double] = []
    for phone in phones where phone.lastDay >= phone.firstDay {
      let span = phone.lastDay - phone.firstDay + 1
      days += span
      opens += FieldSample.perDay(phone.openDays, first: phone.firstDay, span: span)
      refreshesPerDay += FieldSample.perDay(phone.refreshDays, first: phone.firstDay, span: span)
      silentPerDay += FieldSample.perDay(phone.silentPushDays, first: phone.firstDay, span: span)
      for second in phone.openSecondsOfDay { byHour[Swift.min(23, Int(second / 3_600))] += 1 }
      for key in phone.widgets.keys.sorted() {
        let widget = phone.widgets[key]!
        reloadsPerDay += (0..<span).map { Double(widget.perDay[phone.firstDay + $0] ?? 0) }
      }
    }
    deviceDays = days
    opensPerPhone = phones.filter { $0.lastDay >= $0.firstDay }.map {
      ($0.openTimes.count, $0.lastDay - $0.firstDay + 1)
    }
    self.days = phones.map { Swift.max(0, $0.lastDay - $0.firstDay + 1) }.max() ?? 0
    opensPerDeviceDay = opens
    opensByHour = byHour
    refreshesPerDeviceDay = refreshesPerDay
    silentPushesPerDeviceDay = silentPerDay
    reloadsPerInstanceDay = reloadsPerDay
    sessions = phones.flatMap(\.sessions)
    opensWithSource = phones.reduce(0) { $0 + $1.opensWithSource }
    opensFromWidget = phones.reduce(0) { $0 + $1.opensFromWidget }
    silentPushSecondsOfDay = phones.flatMap(\.silentPushSecondsOfDay)
    widgetPushes = phones.reduce(0) { $0 + $1.widgetPushes }
    reloadGaps = phones.flatMap { phone in phone.widgets.keys.sorted().flatMap { phone.widgets[$0]!.gaps } }
    var waking: [Waking] = []
    var lateness: [Lateness] = []
    var refreshes: [RefreshLateness] = []
    for phone in phones {
      // Only requests whose 7 days before lie inside the log: their opens a day are the phone's own count,
      // as the system saw it, not a guess about the days before the log.
      refreshes += phone.refreshLateness.compactMap { run in
        let window = (run.submittedDay - 6)...run.submittedDay
        guard window.lowerBound >= phone.firstDay else { return nil }
        let known = phone.openTimes.indices.filter {
          window.contains(phone.openDays[$0]) && phone.openTimes[$0] <= run.submitted
        }.count
        return RefreshLateness(seconds: run.seconds, exact: run.exact, opensPerDay: Double(known) / 7)
      }
      guard let window = FieldSample.waking(phone.openSecondsOfDay) else { continue }
      waking.append(Waking(wake: window.wake, sleep: window.sleep, opens: window.opens))
      lateness += FieldSample.lateness(phone, awakeFrom: window.observedFrom, to: window.observedTo)
    }
    self.waking = waking
    self.lateness = lateness
    self.refreshes = refreshes
  }

  /// Counts per day of `days` (local day numbers) over the `span` days from `first`, zeros included.
  static func perDay(_ days: [Int], first: Int, span: Int) -> [Double] {
    var counts = Array(repeating: 0.0, count: span)
    for day in days where (first..<first + span).contains(day) { counts[day - first] += 1 }
    return counts
  }

  /// The waking window of a phone's opens (seconds of day): the complement of the largest gap between
  /// consecutive opens around the clock, observed and corrected outwards by one mean spacing.
  static func waking(_ seconds: [Double]) -> (
    wake: Double, sleep: Double, opens: Int, observedFrom: Double, observedTo: Double
  )? {
    guard seconds.count >= minimumOpensForWaking else { return nil }
    let sorted = seconds.sorted()
    var (gap, gapEnd) = (-1.0, 0)
    for index in sorted.indices {
      let next = index + 1 < sorted.count ? sorted[index + 1] : sorted[0] + 86_400
      if next - sorted[index] > gap { (gap, gapEnd) = (next - sorted[index], (index + 1) % sorted.count) }
    }
    let from = sorted[gapEnd]
    let to = sorted[(gapEnd + sorted.count - 1) % sorted.count]
    let awake = 86_400 - gap
    let spacing = awake / Double(sorted.count - 1)
    func wrap(_ value: Double) -> Double {
      (value.truncatingRemainder(dividingBy: 86_400) + 86_400).truncatingRemainder(dividingBy: 86_400)
    }
    return (wrap(from - spacing), wrap(to + spacing), sorted.count, from, to)
  }

  /// A phone's policy latenesses whose date falls inside its observed waking window; one that ran past the
  /// window's end is a lower bound at the end (a reload asked for while the user sleeps waits for them).
  static func lateness(_ phone: FieldDevice, awakeFrom from: Double, to: Double) -> [Lateness] {
    let length = (to - from + 86_400).truncatingRemainder(dividingBy: 86_400)
    var requested: [String: Double] = [:]
    for (key, widget) in phone.widgets where !widget.requestedIntervals.isEmpty {
      let mean = widget.requestedIntervals.reduce(0, +) / Double(widget.requestedIntervals.count)
      requested[key] = mean > 0 ? length / mean : .infinity
    }
    return phone.lateness.compactMap { candidate in
      let into = (candidate.nextSecondOfDay - from + 86_400).truncatingRemainder(dividingBy: 86_400)
      guard into <= length else { return nil }
      let room = length - into
      let perDay = requested[candidate.widget] ?? 0
      if candidate.seconds > room { return Lateness(seconds: room, exact: false, requestedPerDay: perDay) }
      return Lateness(seconds: candidate.seconds, exact: candidate.exact, requestedPerDay: perDay)
    }
  }
}
