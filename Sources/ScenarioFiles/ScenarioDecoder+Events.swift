import SimulationEngine
import WidgetModel
import Yams

/// The capacity-planning sections: top-level `events` (fleet-wide events) and `server` (push fan-out).
extension ScenarioDecoder {
  static func decodeServer(_ value: YAMLValue) throws(ScenarioError) -> ServerConfiguration {
    var reader = try value.mapping()
    var server = ServerConfiguration()
    if let rate = reader.optional("push_rate") {
      if case .scalar = rate.node {
        let text = try rate.string()
        guard text == "none" else {
          throw rate.error("expected none (every push at once) or {per_second: N}, got '\(text)'")
        }
        server.pushRatePerSecond = nil
      } else {
        var section = try rate.mapping()
        if !section.contains("per_second"), let perMinute = section.optional("per_minute") {
          let rate = (try? perMinute.number(in: 0...1e12)).map { value in
            let second = value / 60
            return second == second.rounded() ? "\(Int64(second))" : "\((second * 1_000).rounded() / 1_000)"
          }
          throw perMinute.error(
            "push_rate is written per second, not per_minute: {per_second: \(rate ?? "N")}"
              + (rate == nil ? "" : " is the same rate"))
        }
        let perSecond = try section.required("per_second", "push requests the server sends per second, e.g. 50000")
        server.pushRatePerSecond = try perSecond.number(in: 0.001...1e9)
        try section.finish()
      }
    }
    if let perSecond = reader.optional("per_second") { server.perSecond = try perSecond.bool() }
    try reader.finish()
    return server
  }

  /// The names an event's `changes` may list: widget and control kinds, Live Activity ids.
  static func decodeEvents(
    _ value: YAMLValue, widgets: [WidgetConfiguration], activities: [LiveActivityConfiguration]
  ) throws(ScenarioError) -> [FleetEventConfiguration] {
    var events: [FleetEventConfiguration] = []
    for (index, node) in try value.sequence().enumerated() {
      let element = YAMLValue(
        node: node, path: ScenarioPath.widgetPath(node: node, index: index, base: value.path), source: value.source)
      var reader = try element.mapping()
      let idValue = try reader.required("id", "the event's name, e.g. breaking")
      let id = try idValue.string()
      if events.contains(where: { $0.id == id }) { throw idValue.error("duplicate event '\(id)'") }
      var event = FleetEventConfiguration(id: id)
      try decodeEventTiming(&reader, of: element, into: &event)
      if let share = reader.optional("share") { event.share = try share.probability() }
      try decodeEventAudience(&reader, into: &event, widgets: widgets, activities: activities)
      let changes = try reader.required("changes", "the widget kinds, control kinds or Live Activity ids it changes")
      try decodeEventChanges(changes, into: &event, widgets: widgets, activities: activities)
      if let followUps = reader.optional("follow_ups") { try decodeFollowUps(followUps, into: &event) }
      try reader.finish()
      events.append(event)
    }
    return events
  }

  /// When an event happens: its `clock`, then exactly one of `at` (daily times) or `rate`.
  private static func decodeEventTiming(
    _ reader: inout MappingReader, of element: YAMLValue, into event: inout FleetEventConfiguration
  ) throws(ScenarioError) {
    if let clock = reader.optional("clock") { event.clock = try clock.choice(EventClock.self) }
    let at = reader.optional("at")
    let rate = reader.optional("rate")
    guard (at == nil) != (rate == nil) else {
      throw element.error(
        "an event needs exactly one of at (daily times, e.g. [\"12:00\"]) or rate ({per_day: 5} or {profile: [24 values]})"
      )
    }
    if let at {
      let times = try at.sequence()
      guard !times.isEmpty else { throw at.error("expected at least one daily time, e.g. at: [\"12:00\"]") }
      for (position, time) in times.enumerated() {
        let clock = try YAMLValue(node: time, path: "\(at.path)[\(position)]", source: element.source).timeOfDay()
        event.times.append(TimeOfDay(hours: clock.hours, minutes: clock.minutes))
      }
    }
    if let rate { event.rate = try hourlyRate(rate, allowPerDay: true) }
  }

  /// Whom an event reaches when it names an audience: the devices with the widget `widget`, or with the Live
  /// Activity `activity`.
  private static func decodeEventAudience(
    _ reader: inout MappingReader, into event: inout FleetEventConfiguration, widgets: [WidgetConfiguration],
    activities: [LiveActivityConfiguration]
  ) throws(ScenarioError) {
    if let widget = reader.optional("widget") {
      let name = try widget.string()
      guard let found = widgets.firstIndex(where: { $0.id == name }) else {
        throw widget.error(
          "no widget or control has id '\(name)'\(DidYouMean.hint(for: name, among: widgets.map(\.id)))")
      }
      event.audienceWidget = found
    }
    if let activity = reader.optional("activity") {
      let name = try activity.string()
      guard let found = activities.firstIndex(where: { $0.id == name }) else {
        throw activity.error(
          "no Live Activity has id '\(name)'\(DidYouMean.hint(for: name, among: activities.map(\.id)))")
      }
      event.audienceActivity = found
    }
  }

  /// An event's `changes`: at least one widget kind, control kind or Live Activity id, each sorted into the
  /// data keys or the activity kinds the event changes.
  private static func decodeEventChanges(
    _ changes: YAMLValue, into event: inout FleetEventConfiguration, widgets: [WidgetConfiguration],
    activities: [LiveActivityConfiguration]
  ) throws(ScenarioError) {
    let changed = try changes.sequence()
    guard !changed.isEmpty else {
      throw changes.error("expected at least one widget kind, control kind or Live Activity id")
    }
    for (position, item) in changed.enumerated() {
      let entry = YAMLValue(node: item, path: "\(changes.path)[\(position)]", source: changes.source)
      let name = try entry.string()
      if let activity = activities.firstIndex(where: { $0.id == name }) {
        event.activityKinds.append(activity)
      } else if widgets.contains(where: { $0.surface == .widget && $0.kind == name }) {
        event.dataKeys.append(name)
      } else if let control = widgets.first(where: { $0.surface == .control && $0.kind == name }) {
        event.dataKeys.append(control.dataKey)
      } else {
        let names = widgets.map(\.kind) + activities.map(\.id)
        throw entry.error(
          "'\(name)' is no widget kind, control kind or Live Activity id\(DidYouMean.hint(for: name, among: names))")
      }
    }
  }

  /// An event's `follow_ups`: how many updates follow each occurrence, and the time between them.
  private static func decodeFollowUps(_ followUps: YAMLValue, into event: inout FleetEventConfiguration)
    throws(ScenarioError)
  {
    var section = try followUps.mapping()
    event.followUps = try section.required("updates", "how many updates follow each event").integer(in: 0...1_000)
    let spacing = try section.required("spacing", "time between them, e.g. {dist: exponential, mean: 10m}")
    event.followUpSpacing = try DistributionReader.read(spacing, quantity: .duration)
    try section.finish()
  }

  /// `data.changes` given over clock windows (`{windows: [{from, to, per_hour}]}`) or in bursts
  /// (`{bursts: {per_day | per_hour | profile | windows, updates: N, spacing: DIST}}`); nil for the hourly
  /// forms.
  static func scheduledChanges(_ value: YAMLValue) throws(ScenarioError) -> ScheduledChanges? {
    guard case .mapping = value.node else { return nil }
    var reader = try value.mapping()
    if let windows = reader.optional("windows") {
      let rate = try clockRate(windows: windows)
      try reader.finish()
      return ScheduledChanges(starts: rate)
    }
    guard let bursts = reader.optional("bursts") else { return nil }
    try reader.finish()
    var section = try bursts.mapping()
    let updates = try section.required("updates", "updates per burst, the first included, e.g. 4").integer(
      in: 1...1_000)
    let spacing = try section.required("spacing", "time between a burst's updates, e.g. {dist: exponential, mean: 10m}")
    let distribution = try DistributionReader.read(spacing, quantity: .duration)
    let starts: ClockRate
    if let windows = section.optional("windows") {
      starts = try clockRate(windows: windows)
    } else {
      starts = ClockRate(try hourlyRate(from: &section, bursts, allowPerDay: true))
    }
    try section.finish()
    return ScheduledChanges(starts: starts, updates: updates, spacing: distribution)
  }

  /// `[{from: "11:30", to: "13:30", per_hour: 4}, ...]`: the rate inside each window, zero elsewhere.
  static func clockRate(windows value: YAMLValue) throws(ScenarioError) -> ClockRate {
    var windows: [(from: TimeOfDay, to: TimeOfDay, perHour: Double)] = []
    let nodes = try value.sequence()
    guard !nodes.isEmpty else { throw value.error("expected at least one window {from, to, per_hour}") }
    for (index, node) in nodes.enumerated() {
      let element = YAMLValue(node: node, path: "\(value.path)[\(index)]", source: value.source)
      var reader = try element.mapping()
      let times = try DailyWindowReader(
        &reader, from: "a time of day, e.g. \"11:30\"", to: "a time of day, e.g. \"13:30\"")
      let rate = try reader.required("per_hour", "events per hour inside the window").number(in: 0...100_000)
      try reader.finish()
      let window = try times.window("window")
      windows.append((window.from, window.to, rate))
    }
    return ClockRate(windows: windows)
  }
}
