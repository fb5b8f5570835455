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
  /// for one the next open replaced), and the app's opens a day over the 168 hours before it; only requests
  /// made 7 days or more into the phone's log.
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
  /// Each phone's clock offset ahead of UTC (seconds), at its last record.
  public let clockOffsets: [Int]
  public let deviceDays: Int
  /// The longest stretch of local days one phone's log covers.
  public let days: Int
  public let opensPerDeviceDay: [Double]
  /// Per phone: its opens and the days its log covers (first record to last).
  public let opensPerPhone: [(opens: Int, days: Double)]
  public let opensByHour: [Int]
  /// Where each open falls in its phone's observed waking window (0 its first open of the day, 1 its
  /// last), the two ends left out: even over 0...1 when opens are spread evenly over waking hours.
  public let openPositions: [Double]
  /// Every open's local second of day.
  public let openSecondsOfDay: [Double]
  public let sessions: [Double]
  public let opensWithSource: Int
  public let opensFromWidget: Int
  public let waking: [Waking]
  public let lateness: [Lateness]
  public let refreshes: [RefreshLateness]
  public let refreshesPerDeviceDay: [Double]
  public let silentPushesPerDeviceDay: [Double]
  public let silentPushSecondsOfDay: [Double]
  /// The server's sends matched to the app's deliveries (empty without a server log).
  public let silentPushDeliveries: PushDeliveries
  public let widgetPushDeliveries: PushDeliveries
  public let reloadsPerInstanceDay: [Double]
  public let reloadGaps: [Double]

  /// A widget on a phone that asked for more reloads than it got: the most timelines no foreground call
  /// caused in any 24 hours of its log (what the budget granted), and what its policy asked for a waking day.
  public struct Allowance: Sendable {
    public let granted: Double
    public let requestedPerDay: Double
  }

  /// Widgets (a kind and family on a phone) with at least a whole day of log and a known waking window.
  public let allowances: [Allowance]

  /// The server's sends to a sample of the phones (at most ``FieldObservations/replayCapacity``), on each
  /// phone's clock from its log's first day: what the goodness of fit replays.
  public let sendSchedules: [SendSchedule]

  /// Background runs and silent pushes after an earlier run of the app, and whether each reloaded.
  public let backgroundWakes: [BackgroundWake]

  /// Phones need this many opens before their waking hours are read from them.
  public static let minimumOpensForWaking = 5

  /// The sample of `phones`, in their order.
  init(_ phones: [FieldDevice], settings: FieldObservations.Settings, serverEnd: Int64 = .max) {
    var builder = Builder(settings: settings, serverEnd: serverEnd)
    for phone in phones { builder.add(phone) }
    self.init(builder)
  }

  /// The sample a builder gathered.
  init(_ built: Builder) {
    (devices, clockOffsets, days) = (built.devices, built.clockOffsets, built.days)
    (opensPerDeviceDay, deviceDays, opensByHour) = (
      built.opensPerDeviceDay, built.opensPerDeviceDay.count, built.byHour
    )
    (refreshesPerDeviceDay, silentPushesPerDeviceDay) = (built.refreshesPerDeviceDay, built.silentPushesPerDeviceDay)
    (reloadsPerInstanceDay, opensPerPhone, sessions) = (
      built.reloadsPerInstanceDay, built.opensPerPhone, built.sessions
    )
    (opensWithSource, opensFromWidget) = (built.opensWithSource, built.opensFromWidget)
    (silentPushSecondsOfDay, reloadGaps, waking) = (built.silentPushSecondsOfDay, built.reloadGaps, built.waking)
    (openPositions, openSecondsOfDay, allowances) = (built.openPositions, built.openSecondsOfDay, built.allowances)
    (lateness, refreshes) = (built.lateness, built.refreshes)
    (silentPushDeliveries, widgetPushDeliveries) = (built.silentDeliveries, built.widgetDeliveries)
    sendSchedules = built.replay.schedules
    backgroundWakes = built.wakes
  }

  /// A phone's Background App Refresh requests with their opens a day: only requests whose 7 days before lie
  /// inside the log (their opens a day are the phone's own count, as the system saw it, not a guess about
  /// the days before the log).
  static func refreshLatenesses(_ phone: FieldDevice, opens: [Int64]) -> [RefreshLateness] {
    return phone.refreshLateness.compactMap { run in
      // The 168 hours before the request, as the model counts them.
      let windowStart = run.submitted - 7 * 86_400_000_000
      guard windowStart >= phone.firstTime else { return nil }
      // Opens are in time order: the count is between two partition points.
      let from = partition(opens) { $0 <= windowStart }
      let through = partition(opens) { $0 <= run.submitted }
      let known = Swift.max(0, through - from)
      return RefreshLateness(seconds: run.seconds, exact: run.exact, opensPerDay: Double(known) / 7)
    }
  }

  /// Where opens (seconds of day) fall in the waking window `from`-`to` as a share of it, sorted, the two
  /// ends (the opens that define the window) left out.
  static func positions(_ seconds: [Double], from: Double, to: Double) -> [Double] {
    let length = (to - from + 86_400).truncatingRemainder(dividingBy: 86_400)
    guard length > 0 else { return [] }
    let positions = seconds.map { ($0 - from + 86_400).truncatingRemainder(dividingBy: 86_400) / length }.sorted()
    return Array(positions.dropFirst().dropLast())
  }

  /// Per widget of a phone whose log covers a whole day: the most budgeted timelines in any 24 hours inside
  /// the log, and the reloads its policy asks for in the phone's waking hours (`awakeSeconds`, from its opens).
  /// Left out as exempt reloads the app cannot see the cause of: each widget's first timeline (the widget
  /// being added), and timelines of every widget at one instant with nothing the app saw just before them
  /// (a reboot, a locale change). With one widget a phone's reboots cannot be told apart.
  static func allowances(_ phone: FieldDevice, awakeSeconds: Double) -> [Allowance] {
    let day: Int64 = 86_400_000_000
    let length = (awakeSeconds + 86_400).truncatingRemainder(dividingBy: 86_400)
    let keys = phone.widgets.keys.sorted()
    let everyWidget =
      keys.count < 2
      ? Set<Int64>()
      : keys.dropFirst().reduce(Set(phone.widgets[keys[0]]!.untriggeredTimes)) {
        $0.intersection(phone.widgets[$1]!.untriggeredTimes)
      }
    return keys.compactMap { key in
      let widget = phone.widgets[key]!
      let times = widget.budgetedTimes.dropFirst().filter { !everyWidget.contains($0) }
      guard !widget.requestedIntervals.isEmpty, let first = times.first, first + day <= phone.lastTime else {
        return nil
      }
      var (most, end) = (0, 0)
      for (start, time) in times.enumerated() where time + day <= phone.lastTime {
        while end < times.count && times[end] < time + day { end += 1 }
        most = Swift.max(most, end - start)
      }
      let mean = widget.requestedIntervals.reduce(0, +) / Double(widget.requestedIntervals.count)
      return Allowance(granted: Double(most), requestedPerDay: mean > 0 ? length / mean : .infinity)
    }
  }

  /// The phones' clock offsets as an empirical distribution (distinct offsets in seconds, and how many
  /// phones have each), for the simulation that checks the fit.
  public var clockOffsetDistribution: (values: [Double], weights: [Double]) {
    var counts: [Int: Int] = [:]
    for offset in clockOffsets { counts[offset, default: 0] += 1 }
    let offsets = counts.keys.sorted()
    return (offsets.map(Double.init), offsets.map { Double(counts[$0]!) })
  }

  /// One phone's sends matched to its deliveries, up to `end` (the earlier of its app log's last record other
  /// than a push's arrival and the server log's last send). A silent push's delay is the system's own when the app had been opened before
  /// the send and the caps were not near (a delivery exactly a cap's window after another was held); it is
  /// a lower bound where the app goes dormant (`dormant_after` past its last open), when a push is no longer
  /// delivered to it. A WidgetKit push's is its own when sent in the phone's observed waking hours (it waits
  /// for a sleeping user) and below its caps; a lower bound where those hours end.
  static func matchPushes(
    _ phone: FieldDevice, opens: [Int64], waking window: ObservedWaking?, rules: FieldObservations.PushRules,
    dormantAfter: Double?,
    end: Int64,
    _ silent: inout PushDeliveries, _ widget: inout PushDeliveries
  ) {
    let (hour, day): (Int64, Int64) = (3_600_000_000, 86_400_000_000)
    // When the app goes dormant after `t`: `dormant_after` past the last open of a run of opens each within
    // `dormant_after` of the one before.
    func dormantFrom(_ t: Int64) -> Int64 {
      guard let dormant = dormantAfter.map({ Int64($0 * 1e6) }) else { return .max }
      var index = partition(opens) { $0 <= t }
      guard index > 0 else { return t }
      var last = opens[index - 1]
      while index < opens.count && opens[index] <= last + dormant {
        last = opens[index]
        index += 1
      }
      return last + dormant
    }
    func belowCaps(_ times: [Int64], _ t: Int64, perHour: Double, perDay: Double) -> Bool {
      Double(PushDeliveries.count(times, before: t, window: hour)) < perHour - 1
        && Double(PushDeliveries.count(times, before: t, window: day)) < perDay - 1
    }
    let silentTimes = phone.silentPushTimes
    let silentRules = rules.silent
    silent.add(
      sends: phone.sends.filter { $0.push == .silent }.map(\.time), deliveries: silentTimes, end: end,
      offsetSeconds: phone.offsetSeconds,
      rules: .init(
        usable: { t in
          dormantFrom(t) > t && belowCaps(silentTimes, t, perHour: silentRules.perHour, perDay: silentRules.perDay)
        },
        held: { PushDeliveries.heldByCap(silentTimes, at: $0, windows: [hour, day]) }, limit: dormantFrom))
    let widgetTimes = phone.widgetPushTimes
    let widgetRules = rules.widget
    func awakeEnd(_ t: Int64) -> Int64? {
      guard widgetRules.waitWhileAsleep else { return .max }
      guard let window else { return nil }
      let second = FieldLogTime(utcMicroseconds: t, offsetSeconds: phone.offsetSeconds).localSecondOfDay
      let length = (window.observedTo - window.observedFrom + 86_400).truncatingRemainder(dividingBy: 86_400)
      let into = (second - window.observedFrom + 86_400).truncatingRemainder(dividingBy: 86_400)
      guard into <= length else { return nil }
      return t + Int64((length - into) * 1e6)
    }
    widget.add(
      sends: phone.sends.filter { $0.push == .widget }.map(\.time), deliveries: widgetTimes, end: end,
      offsetSeconds: phone.offsetSeconds,
      rules: .init(
        usable: { t in
          awakeEnd(t) != nil && belowCaps(widgetTimes, t, perHour: widgetRules.perHour, perDay: widgetRules.perDay)
        },
        held: { _ in false }, limit: { awakeEnd($0) ?? $0 }))
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

  /// A phone's waking window as ``waking(_:)`` reads it: corrected outwards (`wake`, `sleep`), from the
  /// `opens` it saw, and as observed (its first and last open of the day, seconds since midnight).
  typealias ObservedWaking = (wake: Double, sleep: Double, opens: Int, observedFrom: Double, observedTo: Double)

  /// The waking window of a phone's opens (seconds of day): the complement of the largest gap between
  /// consecutive opens around the clock, observed and corrected outwards by one mean spacing.
  static func waking(_ seconds: [Double]) -> ObservedWaking? {
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

  /// A phone's policy latenesses whose date the person was seen awake around: inside its observed waking
  /// window, with an open of the same waking day at or before the date; one that ran past that day's last open
  /// is a lower bound there (a reload asked for while the user sleeps waits for them). Bedtimes and
  /// wake-ups vary from night to night, so the window's ends (the latest and earliest opens of any day) do
  /// not say the person was awake on a given day: censoring at the window's end would read a reload deferred
  /// by an early night as a long lateness. `opens` are the phone's opens (UTC microseconds, in time order).
  static func lateness(_ phone: FieldDevice, opens: [Int64], awakeFrom from: Double, to: Double) -> [Lateness] {
    let length = (to - from + 86_400).truncatingRemainder(dividingBy: 86_400)
    var requested: [String: Double] = [:]
    for (key, widget) in phone.widgets where !widget.requestedIntervals.isEmpty {
      let mean = widget.requestedIntervals.reduce(0, +) / Double(widget.requestedIntervals.count)
      requested[key] = mean > 0 ? length / mean : .infinity
    }
    return phone.lateness.compactMap { candidate in
      let into = (candidate.nextSecondOfDay - from + 86_400).truncatingRemainder(dividingBy: 86_400)
      guard into <= length else { return nil }
      // This waking day's first open at or before the date, and its last open after it.
      let first = partition(opens) { $0 < candidate.date - Int64(into * 1e6) }
      guard first < opens.count, opens[first] <= candidate.date else { return nil }
      let last = opens[partition(opens) { $0 <= candidate.date + Int64((length - into) * 1e6) } - 1]
      let room = Double(last - candidate.date) / 1e6
      guard room > 0 else { return nil }
      let perDay = requested[candidate.widget] ?? 0
      if candidate.seconds > room { return Lateness(seconds: room, exact: false, requestedPerDay: perDay) }
      return Lateness(seconds: candidate.seconds, exact: candidate.exact, requestedPerDay: perDay)
    }
  }

}
