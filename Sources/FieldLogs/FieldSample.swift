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
  /// Per phone: its opens and the days its log covers (first record to last).
  public let opensPerPhone: [(opens: Int, days: Double)]
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
    let counts = FieldSample.perDayCounts(phones)
    let days = counts.opens.count
    let (opens, byHour) = (counts.opens, counts.byHour)
    let (refreshesPerDay, silentPerDay, reloadsPerDay) = (counts.refreshes, counts.silentPushes, counts.reloads)
    deviceDays = days
    // Rates over the time each log covers, first record to last.
    opensPerPhone = phones.filter { $0.lastTime > $0.firstTime }.map {
      ($0.openTimes.count, Double($0.lastTime - $0.firstTime) / 86_400e6)
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
        // Opens are in time order, so their days are too: the count is between two partition points.
        let from = FieldSample.partition(phone.openDays) { $0 < window.lowerBound }
        let through = FieldSample.partition(phone.openTimes) { $0 <= run.submitted }
        let known = Swift.max(0, through - from)
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

  /// Per whole local day of every phone (each phone's first and last day left out when there are days
  /// between: a log starts and stops within a day): opens, refreshes, silent pushes, and each widget's
  /// timelines; and opens by local hour.
  static func perDayCounts(_ phones: [FieldDevice]) -> (
    opens: [Double], refreshes: [Double], silentPushes: [Double], reloads: [Double], byHour: [Int]
  ) {
    var (opens, refreshes, silent, reloads) = ([Double](), [Double](), [Double](), [Double]())
    var byHour = Array(repeating: 0, count: 24)
    for phone in phones where phone.lastDay >= phone.firstDay {
      let whole = phone.lastDay - phone.firstDay >= 2
      let (first, span) = (phone.firstDay + (whole ? 1 : 0), phone.lastDay - phone.firstDay + (whole ? -1 : 1))
      opens += perDay(phone.openDays, first: first, span: span)
      refreshes += perDay(phone.refreshDays, first: first, span: span)
      silent += perDay(phone.silentPushDays, first: first, span: span)
      for second in phone.openSecondsOfDay { byHour[Swift.min(23, Int(second / 3_600))] += 1 }
      for key in phone.widgets.keys.sorted() {
        let widget = phone.widgets[key]!
        reloads += (0..<span).map { Double(widget.perDay[first + $0] ?? 0) }
      }
    }
    return (opens, refreshes, silent, reloads, byHour)
  }

  /// The first index of `sorted` where `isBefore` turns false (`isBefore` true on a prefix).
  static func partition<Value>(_ sorted: [Value], _ isBefore: (Value) -> Bool) -> Int {
    var (low, high) = (0, sorted.count)
    while low < high {
      let middle = (low + high) / 2
      if isBefore(sorted[middle]) { low = middle + 1 } else { high = middle }
    }
    return low
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
