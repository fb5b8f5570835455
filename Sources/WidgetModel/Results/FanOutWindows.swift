import SimulationEngine

/// When the servers walk the fleet's device list to send every phone the same push: each fleet event's
/// occurrence and each push-to-start at a fixed time, from its moment for as long as `server.push_rate`
/// takes to reach every phone (one second when there is no rate: every push leaves at once).
///
/// Inside such a window the fleet's pushes per second are set by the walk, not drawn phone by phone: a
/// sample of phones sends them evenly spaced, each standing for `fleet.represents / fleet.devices` real
/// ones, so the sample's count in a second is no quasi-Poisson draw of the fleet's (see
/// ``SampledLoadEstimate``, which takes their count over the window as the fleet's, at an even pace).
/// A window's phones are on one clock: fan-outs at a local time are placed only when the fleet's clock
/// offsets are a finite list (each offset its own window).
struct FanOutWindows {
  struct Window: Equatable {
    /// Seconds since 00:00 UTC of the first measured day.
    let start: Double
    let end: Double
    /// The ``ServerSource`` raw values the walk sends, as bits.
    let sources: UInt16
  }

  let windows: [Window]

  init(_ configuration: borrowing ScenarioConfiguration, replication: Int) {
    let fleet = configuration.fleet
    let rate = configuration.server.pushRatePerSecond
    let measuredStart = Double(configuration.warmupDays * 86_400)
    let limit = ServerLoad.maximumOffset.seconds
    let offsets: [Double]? =
      fleet.clockOffset.map { clock in clock.finiteSupport?.map { Swift.min(Swift.max($0, -limit), limit) } }
      ?? [0]
    var windows: [Window] = []
    /// A walk from `at` (seconds on the fleet's UTC clock) of `pushes` pushes in all.
    func walk(at: Double, pushes: Double, sources: UInt16) {
      let start = at - measuredStart
      let length = rate.map { pushes / $0 } ?? 0
      windows.append(Window(start: start, end: Swift.max(start + length, start.rounded(.down) + 1), sources: sources))
    }
    func bit(_ source: ServerSource) -> UInt16 { 1 << UInt16(source.rawValue) }
    let schedule = FleetEventSchedule(configuration, replication: replication)
    for (index, event) in configuration.events.enumerated() {
      let widgetPush = configuration.widgets.contains { event.dataKeys.contains($0.dataKey) && $0.data.push }
      let silentPush = configuration.widgets.contains { event.dataKeys.contains($0.dataKey) && $0.data.silentPush }
      let pushes = (widgetPush ? 1.0 : 0) + (silentPush ? 1 : 0) + Double(event.activityKinds.count)
      guard pushes > 0 else { continue }
      let sources =
        (widgetPush ? bit(.widgetPush) : 0) | (silentPush ? bit(.silentPush) : 0)
        | (event.activityKinds.isEmpty ? 0 : bit(.activityPush))
      var reach = event.share
      if let widget = event.audienceWidget { reach *= fleet.installProbability[widget] ?? 1 }
      guard let zones = event.clock == .utc ? [0] : offsets else { continue }
      for micros in schedule.micros[schedule.ranges[index]] {
        for offset in zones {
          walk(at: Double(micros) / 1e6 - offset, pushes: fleet.represents * reach * pushes, sources: sources)
        }
      }
    }
    // Each phone is sent one push-to-start of every kind that starts at fixed times, on its own clock.
    let kinds = configuration.liveActivities.count { $0.start == .pushToStart && !$0.startsAt.isEmpty }
    if let offsets {
      let days = configuration.simulatedDays
      for activity in configuration.liveActivities where activity.start == .pushToStart {
        for time in activity.startsAt {
          for day in 0..<days {
            for offset in offsets {
              walk(
                at: Double(day * 86_400) + time.sinceMidnight.seconds - offset,
                pushes: fleet.represents * Double(kinds), sources: bit(.activityPush))
            }
          }
        }
      }
    }
    self.windows = windows
  }

  /// The stretches of whole seconds within `0..<secondCount` that windows sending any of `sources` cover,
  /// ascending, cut wherever such a window starts or ends: over each stretch the same windows are under way.
  func segments(sources: [ServerSource], secondCount: Int) -> [Range<Int>] {
    let mask = sources.reduce(UInt16(0)) { $0 | 1 << UInt16($1.rawValue) }
    var cuts: [Int] = []
    var covered: [Range<Int>] = []
    for window in windows where window.sources & mask != 0 {
      let first = Swift.max(0, Int(window.start.rounded(.down)))
      let last = Swift.min(secondCount, Int(window.end.rounded(.up)))
      guard first < last else { continue }
      cuts += [first, last]
      covered.append(first..<last)
    }
    guard !covered.isEmpty else { return [] }
    cuts = Array(Set(cuts)).sorted()
    covered.sort { $0.lowerBound < $1.lowerBound }
    var segments: [Range<Int>] = []
    var next = 0
    var reach = Int.min
    for (low, high) in zip(cuts, cuts.dropFirst()) {
      while next < covered.count && covered[next].lowerBound <= low {
        reach = Swift.max(reach, covered[next].upperBound)
        next += 1
      }
      if reach > low { segments.append(low..<high) }
    }
    return segments
  }
}
