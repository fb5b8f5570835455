import Results
import SimulationEngine

extension FanOutWindows {
  /// The fan-out windows of `configuration`'s fleet in replication `replication` (fleet events are drawn per
  /// replication).
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
      let pushes = Double(event.pushesPerOccurrence(widgets: configuration.widgets))
      guard pushes > 0 else { continue }
      let sources =
        PushKind.allCases.reduce(0) {
          $0 | (event.sends($1, widgets: configuration.widgets) ? bit($1.row.serverSource) : 0)
        }
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
    self.init(windows: windows)
  }
}
