import Results
import SimulationEngine

/// The windows that explain herds (``HerdRule``), as a scenario's times are listed: once-only windows in
/// seconds since 00:00 UTC of the first measured day, daily ones in seconds since 00:00 UTC, each with the
/// index of its label (labels in the order they are first used).
struct HerdWindows {
  var once: [Window] = []
  var daily: [Window] = []
  var labels: [String] = []
  /// The fleet's clock offsets when they are a finite list: local times line up on each.
  let offsets: [Int]
  /// The first measured second (after the warm-up), since 00:00 UTC of day 0.
  let measuredStart: Int

  init(_ configuration: borrowing ScenarioConfiguration) {
    measuredStart = configuration.warmupDays * 86_400
    if let clock = configuration.fleet.clockOffset {
      let limit = ServerLoad.maximumOffset.seconds
      offsets = (clock.finiteSupport ?? []).map { Int(Swift.min(Swift.max($0, -limit), limit).rounded()) }
    } else {
      offsets = [0]
    }
  }

  /// The index of `text` among the labels, added when new.
  mutating func label(_ text: String) -> Int {
    if let index = labels.lastIndex(of: text) { return index }
    labels.append(text)
    return labels.count - 1
  }

  /// A local clock time, every day on every zone: at `clock - offset` UTC.
  mutating func everyDay(_ time: TimeOfDay, length: Int, _ text: String) {
    let index = label("\(text) \(time)")
    let clock = Int(time.sinceMidnight.seconds)
    for offset in offsets {
      let start = ((clock - offset) % 86_400 + 86_400) % 86_400
      daily.append(Window(start: start, end: start + length, label: index))
    }
  }

  /// Seconds the servers take to send `pushesPerPhone` pushes to a `reach` share of the real fleet at
  /// `server.push_rate` (none without a rate).
  static func fanOutSeconds(
    _ configuration: borrowing ScenarioConfiguration, pushesPerPhone: Double, reach: Double
  ) -> Int {
    guard let rate = configuration.server.pushRatePerSecond, pushesPerPhone > 0 else { return 0 }
    return Int(Swift.min((configuration.fleet.represents * reach * pushesPerPhone / rate).rounded(.up), 1e9))
  }

  /// Fleet events: every occurrence and its fan-out.
  mutating func addFleetEvents(_ configuration: borrowing ScenarioConfiguration, replication: Int) {
    let fleet = configuration.fleet
    let schedule = FleetEventSchedule(configuration, replication: replication)
    for (index, event) in configuration.events.enumerated() {
      let pushes = Double(event.pushesPerOccurrence(widgets: configuration.widgets))
      var reach = event.share
      if let widget = event.audienceWidget { reach *= fleet.installProbability[widget] ?? 1 }
      let length =
        HerdWindows.fanOutSeconds(configuration, pushesPerPhone: pushes, reach: reach) + HerdRule.slack
      let name = label("event \(event.id)")
      for micros in schedule.micros[schedule.ranges[index]] {
        // Whole seconds, rounded down (UTC events start before day 0).
        let at = Int((micros - ((micros % 1_000_000) + 1_000_000) % 1_000_000) / 1_000_000)
        for offset in event.clock == .utc ? [0] : offsets {
          let start = at - offset - measuredStart
          once.append(Window(start: start, end: start + length, label: name))
        }
      }
    }
  }

  /// Times every phone keeps: a timeline's times, its active window's start, a clock-aligned `.after` date.
  mutating func addWidgetTimes(_ configuration: borrowing ScenarioConfiguration) {
    for widget in configuration.widgets {
      for time in widget.timeline.times { everyDay(time, length: HerdRule.slack, "widgets[\(widget.id)].timeline.at") }
      if let active = widget.timeline.activeWindow {
        everyDay(active.from, length: HerdRule.slack, "widgets[\(widget.id)].timeline.active from")
      }
      if widget.timeline.alignment == .clock, case .after(let interval) = widget.timeline.policy,
        interval.seconds >= 60
      {
        let step = Int(interval.seconds)
        // A reload asked for within `budget.min_interval` of an aligned one (a push's) waits until that
        // interval has passed since it, and one asked for within the interval after that waits as long again
        // (past the next aligned date too, which then waits in turn): every phone that held one back reloads
        // in the same second, each interval after the aligned one, for two of its intervals (a phone held back
        // that often is rarer with each time, and soon fewer than a herd).
        let heldBack = Swift.max(0, Int(configuration.budget.minInterval.seconds))
        var clock = 0
        while clock < 86_400 {
          everyDay(
            TimeOfDay(sinceMidnight: .seconds(Int64(clock))), length: HerdRule.alignedSlack,
            "widgets[\(widget.id)].timeline.align clock")
          var after = heldBack
          while after > 0 && after < 2 * step {
            if after % step != 0 {
              everyDay(
                TimeOfDay(sinceMidnight: .seconds(Int64((clock + after) % 86_400))), length: HerdRule.alignedSlack,
                "budget.min_interval after widgets[\(widget.id)].timeline.align clock (reloads held back), at")
            }
            after += heldBack
          }
          clock += step
        }
      }
    }
  }

  /// Live Activities started at fixed times. A push-to-start at a fixed time goes to every phone; each phone
  /// gets one of every such kind.
  mutating func addActivityStarts(_ configuration: borrowing ScenarioConfiguration) {
    let fleet = configuration.fleet
    let pushToStartKinds = configuration.liveActivities.count { $0.start == .pushToStart && !$0.startsAt.isEmpty }
    for activity in configuration.liveActivities {
      let pushToStart = activity.start == .pushToStart
      guard pushToStart || fleet.spread.starts == nil else { continue }
      let fanOut =
        pushToStart
        ? HerdWindows.fanOutSeconds(configuration, pushesPerPhone: Double(pushToStartKinds), reach: 1) : 0
      for time in activity.startsAt {
        everyDay(
          time, length: fanOut + HerdRule.slack,
          "live_activities[\(activity.id)].starts.at" + (pushToStart ? " (push-to-start fan-out)" : ""))
      }
    }
  }

  /// Sleep and the charger: pinned unless a spread or `vary` shifts them (the default spread moves the
  /// charger with the sleep window, `vary` moves only the sleep window).
  mutating func addPinnedSleepAndCharging(_ configuration: borrowing ScenarioConfiguration) {
    let fleet = configuration.fleet
    let spreadsSleep = fleet.spread.sleep != nil
    if !spreadsSleep && !fleet.varies(.sleepToShiftSeconds) {
      everyDay(configuration.user.sleep.to, length: HerdRule.slack, "user.sleep.to (pinned)")
    }
    if !spreadsSleep && !fleet.varies(.sleepFromShiftSeconds) {
      everyDay(configuration.user.sleep.from, length: HerdRule.slack, "user.sleep.from (pinned)")
    }
    if let charging = configuration.device.charging {
      if !spreadsSleep || fleet.varies(.sleepFromShiftSeconds) {
        everyDay(charging.window.from, length: HerdRule.slack, "device.charging from (pinned)")
      }
      if !spreadsSleep || fleet.varies(.sleepToShiftSeconds) {
        everyDay(charging.window.to, length: HerdRule.slack, "device.charging to (pinned)")
      }
    }
  }

  /// Widgets added at midnight of day 0 on every phone, unless installs are spread or drawn.
  mutating func addPinnedInstall(_ configuration: borrowing ScenarioConfiguration) {
    guard configuration.fleet.spread.install == nil, configuration.fleet.installTime == nil else { return }
    let name = label("widgets added at 00:00 of day 0 (install pinned)")
    for offset in offsets {
      let start = -offset - measuredStart
      once.append(Window(start: start, end: start + HerdRule.slack, label: name))
    }
  }
}

extension HerdRule {
  /// The rule of `configuration`'s fleet in replication `replication` (fleet events are drawn per
  /// replication).
  public init(_ configuration: borrowing ScenarioConfiguration, replication: Int) {
    var windows = HerdWindows(configuration)
    windows.addFleetEvents(configuration, replication: replication)
    windows.addWidgetTimes(configuration)
    windows.addActivityStarts(configuration)
    windows.addPinnedSleepAndCharging(configuration)
    windows.addPinnedInstall(configuration)
    self.init(devices: configuration.fleet.devices, once: windows.once, daily: windows.daily, labels: windows.labels)
  }
}
