import ResultStorage
import SimulationEngine

/// A second in which many of a fleet's phones made the same kind of request: more than a share of the fleet,
/// and far more than independent phones would at that source's rate. Real populations rarely act in one
/// second; a simulated one does when a default or a pinned time makes every phone alike, and then its peak is
/// the simulator's, not the fleet's. What the scenario says happens then (a fleet event, a push fan-out, a
/// pinned time) is its ``explanation``; a herd without one is an invented peak.
public struct Herd: Sendable, Equatable {
  public let source: ServerSource
  /// Since 00:00 UTC of the first measured day.
  public let second: Int
  /// Simulated phones that made a request of the source in that second (a phone whose widgets reload
  /// together counts once).
  public let phones: UInt64
  /// Their share of the simulated fleet.
  public let share: Double
  /// What the scenario says happens then; nil when nothing does.
  public let explanation: String?
}

/// When a second's requests are a herd, and what in the scenario explains one.
///
/// A herd: at least ``share`` of the fleet's phones (and at least ``minimumPhones``) made requests of one
/// source in one second, and more than a Poisson count at four times the source's mean rate would reach
/// once in a billion seconds (four times: a day's busiest hours run at a few times its mean). An explanation
/// is a window after a time the scenario names: a fleet event's occurrence (its fan-out at
/// `server.push_rate`, then ``slack`` for deliveries and the fetches they cause), a push-to-start at a fixed
/// time, or a time every phone keeps because the scenario pins it (`timeline.at`, a pinned sleep window or
/// install, a scheduled start without spread). Local times are explained on each of the fleet's time zones
/// when the zones are a finite list (a continuous spread of zones leaves no local time in step).
public struct HerdRule: Sendable {
  /// Share of the fleet's phones in one second that makes a herd [A].
  public static let share = 0.01
  /// Fewest phones that make one [A].
  public static let minimumPhones: UInt64 = 5
  /// How long after a named time its consequences (deliveries, the fetches they cause) still explain a herd [A].
  public static let slack = 600
  /// The slack after a clock-aligned `.after` date: the system's lateness spreads those within minutes [A].
  public static let alignedSlack = 120

  public let devices: Int
  /// Fewest simulated requests of one source in one second that can be a herd.
  public let floor: UInt64
  /// What explains a herd: windows that happen once (a fleet event's occurrence, installs at midnight), in
  /// seconds since 00:00 UTC of the first measured day, and windows that recur every day at one UTC time of
  /// day (a local time on one time zone), in seconds since 00:00 UTC; labels by index into ``labels``.
  let once: WindowTable
  let daily: WindowTable
  let labels: [String]

  /// A rule for a fleet of `devices` phones, with the windows that explain a herd.
  package init(devices: Int, once: [Window], daily: [Window], labels: [String]) {
    self.devices = devices
    floor = Swift.max(HerdRule.minimumPhones, UInt64((HerdRule.share * Double(devices)).rounded(.up)))
    self.once = WindowTable(once)
    self.daily = WindowTable(daily)
    self.labels = labels
  }

  /// What the scenario says happens at `second` (since 00:00 UTC of the first measured day): the label of
  /// a window that holds it, once-only windows first.
  public func explanation(second: Int) -> String? {
    if let found = once.label(at: second) { return labels[found] }
    // A daily window holds the second's time of day, or (past midnight) the same time a day later.
    let clock = ((second % 86_400) + 86_400) % 86_400
    for day in 0...daily.daysSpanned {
      if let found = daily.label(at: clock + day * 86_400) { return labels[found] }
    }
    return nil
  }

  /// Whether `phones` requests of a source in one second are a herd, given the source's mean per second.
  func isHerd(_ phones: UInt64, meanPerSecond: Double) -> Bool {
    let busy = 4 * meanPerSecond
    return phones >= floor && Double(phones) > busy + 6 * busy.squareRoot() + 3
  }
}

extension ServerSeconds {
  /// Per source (not fleet-wide), its largest herd under `rule` that nothing in the scenario explains, or
  /// else its largest explained one; most phones first.
  public func herds(_ rule: HerdRule) -> [Herd] {
    guard secondCount > 0, rule.devices > 1 else { return [] }
    var sums = Array(repeating: UInt64(0), count: ServerSource.count)
    var busiest = Array(repeating: (phones: UInt64(0), second: 0), count: ServerSource.count)
    var unexplained = busiest
    var next = 0
    while let second = busySecond(from: next) {
      next = second + 1
      let first = ServerSource.bySlot.start(ofRow: second)
      counts.nonzeroCells(from: first, count: ServerSource.count).forEachSetBit { source in
        let phones = counts[first + source] - repeats[second, source]
        sums[source] &+= phones
        if phones > busiest[source].phones { busiest[source] = (phones, second) }
        if phones >= rule.floor, phones > unexplained[source].phones, rule.explanation(second: second) == nil {
          unexplained[source] = (phones, second)
        }
      }
    }
    var herds: [Herd] = []
    for source in ServerSource.allCases where !source.isFleetWide {
      let mean = Double(sums[source.rawValue]) / Double(secondCount)
      let found: (phones: UInt64, second: Int)
      if rule.isHerd(unexplained[source.rawValue].phones, meanPerSecond: mean) {
        found = unexplained[source.rawValue]
      } else if rule.isHerd(busiest[source.rawValue].phones, meanPerSecond: mean) {
        found = busiest[source.rawValue]
      } else {
        continue
      }
      herds.append(
        Herd(
          source: source, second: found.second, phones: found.phones,
          share: Double(found.phones) / Double(rule.devices),
          explanation: rule.explanation(second: found.second)))
    }
    return herds.sorted { ($0.phones, -$0.source.rawValue) > ($1.phones, -$1.source.rawValue) }
  }
}

/// A span of seconds and what explains it (an index into ``HerdRule/labels``); the end second is included.
package struct Window: Sendable {
  let start: Int
  let end: Int
  let label: Int

  package init(start: Int, end: Int, label: Int) {
    self.start = start
    self.end = end
    self.label = label
  }
}

/// Windows sorted by start, with the latest end among each window and those before it: a look-up bisects to
/// the last window starting at or before a second, then walks back only while an earlier window could still
/// reach it.
struct WindowTable: Sendable {
  let windows: [Window]
  let latestEnd: [Int]

  init(_ windows: [Window]) {
    self.windows = windows.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    var latest = Int.min
    latestEnd = self.windows.map { window in
      latest = Swift.max(latest, window.end)
      return latest
    }
  }

  /// Whole days the longest window reaches past the start of its own (0 for windows within a day).
  var daysSpanned: Int {
    windows.reduce(0) { Swift.max($0, ($1.end - $1.start) / 86_400 + 1) }
  }

  /// The label of a window holding `second`, the latest-starting one; nil when none does.
  func label(at second: Int) -> Int? {
    var low = 0
    var high = windows.count
    while low < high {
      let middle = (low + high) / 2
      if windows[middle].start <= second { low = middle + 1 } else { high = middle }
    }
    var index = low - 1
    while index >= 0 && latestEnd[index] >= second {
      if windows[index].end >= second { return windows[index].label }
      index -= 1
    }
    return nil
  }
}
