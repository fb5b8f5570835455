import SimulationEngine
import WidgetModel
import Yams

/// Push and Live Activity sections: `system.widget_push`, `system.live_activities`, top-level `live_activities`.
extension ScenarioDecoder {
  static func decodeWidgetPush(_ value: YAMLValue) throws(ScenarioError) -> WidgetPushConfiguration {
    var reader = try value.mapping()
    var push = WidgetPushConfiguration()
    if let perHour = reader.optional("per_hour") { push.perHour = try perHour.number(in: 0...100_000) }
    if let perDay = reader.optional("per_day") { push.perDay = try perDay.number(in: 0...1_000_000) }
    if let reloads = reader.optional("reloads") { push.reloads = try reloads.choice(WidgetPushScope.self) }
    if let delay = reader.optional("delay") { push.delay = try DistributionReader.read(delay, quantity: .duration) }
    if let wait = reader.optional("wait_while_asleep") { push.waitWhileAsleep = try wait.bool() }
    try reader.finish()
    return push
  }

  static func decodeActivitySystem(_ value: YAMLValue) throws(ScenarioError) -> LiveActivitySystemConfiguration {
    var reader = try value.mapping()
    var system = LiveActivitySystemConfiguration()
    if let budget = reader.optional("budget_per_hour") { system.budgetPerHour = try budget.number(in: 0...100_000) }
    if let budget = reader.optional("frequent_budget_per_hour") {
      system.frequentBudgetPerHour = try budget.number(in: 0...100_000)
    }
    if let start = reader.optional("push_to_start") {
      var section = try start.mapping()
      if let budget = section.optional("budget") { system.pushToStartBudget = try budget.number(in: 0...100_000) }
      if let refill = section.optional("refill_per_hour") {
        system.pushToStartRefillPerHour = try refill.number(in: 0...100_000)
      }
      try section.finish()
    }
    if let cap = reader.optional("max_concurrent") { system.maxConcurrent = try cap.integer(in: 0...1_000) }
    if let cap = reader.optional("max_concurrent_device") {
      system.maxConcurrentDevice = try cap.integer(in: 0...1_000)
    }
    if let cap = reader.optional("max_broadcast_channels") {
      system.maxBroadcastChannels = try cap.integer(in: 0...1_000_000)
    }
    if let delay = reader.optional("low_priority_delay") {
      system.lowPriorityDelay = try DistributionReader.read(delay, quantity: .duration)
    }
    if let active = reader.optional("max_active") { system.maximumActive = try active.duration(in: 1...(30 * 86_400)) }
    if let lock = reader.optional("max_lock_screen") {
      system.maximumLockScreen = try lock.duration(in: 0...(30 * 86_400))
    }
    if let ceiling = reader.optional("memory_ceiling") { system.memoryCeilingBytes = try ceiling.bytes(in: 1...1e12) }
    try reader.finish()
    return system
  }

  static func decodeLiveActivities(
    _ value: YAMLValue, widgetIDs: Set<String>, channels: [BroadcastChannelConfiguration],
    burstKinds: [String: String] = [:]
  ) throws(ScenarioError) -> [LiveActivityConfiguration] {
    var activities: [LiveActivityConfiguration] = []
    var seen: Set<String> = []
    for (index, node) in try value.sequence().enumerated() {
      let element = YAMLValue(
        node: node, path: ScenarioPath.widgetPath(node: node, index: index, base: value.path), source: value.source)
      var reader = try element.mapping()
      let id = try decodeActivityID(&reader, seen: seen, widgetIDs: widgetIDs)
      seen.insert(id)
      var activity = LiveActivityConfiguration(id: id)
      if let starts = reader.optional("starts") {
        try decodeActivityStarts(starts, into: &activity, burstKinds: burstKinds, earlier: activities)
      }
      if let start = reader.optional("start") { activity.start = try start.choice(ActivityStart.self) }
      let updatesValue = reader.optional("updates")
      if activity.burstKind != nil && updatesValue == nil { activity.ownUpdates = false }
      if let updates = updatesValue { try decodeActivityUpdates(updates, into: &activity, channels: channels) }
      try decodeActivityBehaviour(&reader, into: &activity)
      try reader.finish()
      activities.append(activity)
    }
    return activities
  }

  /// A Live Activity's `id`: letters, digits, `_` and `-` only, and distinct from the activities before it,
  /// the widgets and controls, and the reports' reserved rows, since reports name rows by it.
  private static func decodeActivityID(_ reader: inout MappingReader, seen: Set<String>, widgetIDs: Set<String>)
    throws(ScenarioError) -> String
  {
    let idValue = try reader.required("id", "a unique name for reports, e.g. delivery")
    let id = try idValue.string()
    guard id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
      throw idValue.error("ids may hold only letters, digits, '_' and '-', got \(idValue.shown)")
    }
    guard !seen.contains(id), !widgetIDs.contains(id), !reservedIDs.contains(id) else {
      throw idValue.error(
        "duplicate id '\(id)': widgets, controls, Live Activities and \(reservedIDs.sorted().joined(separator: ", ")) "
          + "need distinct names in reports")
    }
    return id
  }

  /// A Live Activity's `starts`: random starts per day, the data kind whose bursts start it (one activity per
  /// kind, so `earlier` activities are checked), and daily times; at least one of the three.
  private static func decodeActivityStarts(
    _ starts: YAMLValue, into activity: inout LiveActivityConfiguration, burstKinds: [String: String],
    earlier activities: [LiveActivityConfiguration]
  ) throws(ScenarioError) {
    var section = try starts.mapping()
    activity.startsPerDay = try section.optional("per_day")?.number(in: 0...10_000) ?? 0
    if let burst = section.optional("on_burst") {
      let kind = try burst.string()
      guard let key = burstKinds[kind] else {
        throw burst.error(
          "no widget or control kind '\(kind)' changes in bursts (data.changes: {bursts: ...})"
            + DidYouMean.hint(for: kind, among: burstKinds.keys.sorted()))
      }
      if activities.contains(where: { $0.burstKind == key }) {
        throw burst.error("another Live Activity already starts on bursts of '\(kind)': one per kind")
      }
      activity.burstKind = key
    }
    if let times = section.optional("at") {
      for (position, node) in try times.sequence().enumerated() {
        let time = try YAMLValue(node: node, path: "\(times.path)[\(position)]", source: times.source).timeOfDay()
        activity.startsAt.append(TimeOfDay(hours: time.hours, minutes: time.minutes))
      }
    }
    try section.finish()
    if activity.startsAt.isEmpty && !section.contains("per_day") && activity.burstKind == nil {
      throw starts.error(
        "expected per_day (random starts), at (a list of daily times) and/or on_burst (a data kind whose bursts "
          + "start it)")
    }
  }

  /// A Live Activity's `updates`: its own interval, or the broadcast channel it subscribes to instead, and
  /// the APNs priority they are sent with.
  private static func decodeActivityUpdates(
    _ updates: YAMLValue, into activity: inout LiveActivityConfiguration, channels: [BroadcastChannelConfiguration]
  ) throws(ScenarioError) {
    var section = try updates.mapping()
    let interval = section.optional("interval")
    if let interval {
      activity.updateInterval = try DistributionReader.read(interval, quantity: .duration)
    }
    if let broadcast = section.optional("broadcast") {
      let name = try broadcast.string()
      guard let channel = channels.firstIndex(where: { $0.id == name }) else {
        let names = channels.map(\.id)
        throw broadcast.error(
          "no broadcast channel '\(name)': declare it under broadcast_channels (with its storage and update "
            + "interval)\(DidYouMean.hint(for: name, among: names))")
      }
      if let interval {
        throw interval.error("a broadcast activity's updates come from its channel: give the interval there")
      }
      activity.broadcastChannel = channel
    }
    if let priority = section.optional("priority") {
      activity.priority = try priority.integer(in: 5...10)
      guard activity.priority == 5 || activity.priority == 10 else {
        throw priority.error(
          "APNs priority is 10 (immediate, budgeted) or 5 (opportunistic, free), got \(priority.shown)")
      }
    }
    try section.finish()
  }

  /// How a running Live Activity behaves: frequent updates, how long it lasts, ends and stays, its memory,
  /// when it goes stale, its relevance, what a cap does to it, and how often its push token rotates.
  private static func decodeActivityBehaviour(
    _ reader: inout MappingReader, into activity: inout LiveActivityConfiguration
  ) throws(ScenarioError) {
    if let frequent = reader.optional("frequent_updates") { activity.frequentUpdates = try frequent.bool() }
    if let allowed = reader.optional("frequent_updates_allowed") {
      activity.frequentUpdatesAllowed = try allowed.bool()
    }
    if let duration = reader.optional("duration") {
      activity.duration = try DistributionReader.read(duration, quantity: .duration)
    }
    if let end = reader.optional("end") { activity.end = try end.choice(ActivityEnd.self) }
    if let dismissal = reader.optional("dismissal") { activity.dismissal = try decodeDismissal(dismissal) }
    if let memory = reader.optional("memory") {
      activity.memoryBytes = try DistributionReader.read(memory, quantity: .size)
    }
    if let stale = reader.optional("stale_after") {
      activity.staleAfter = try stale.duration(in: 0...(30 * 86_400), exclusiveLower: true)
    }
    if let score = reader.optional("relevance_score") { activity.relevanceScore = try score.number(in: 0...1e9) }
    if let policy = reader.optional("on_cap") { activity.onCap = try policy.choice(ActivityCapPolicy.self) }
    if let rotations = reader.optional("token_rotations") {
      activity.tokenRotationsPerDay = try perDay(rotations)
      if activity.broadcastChannel != nil && activity.tokenRotationsPerDay > 0 {
        throw rotations.error(
          "a broadcast activity subscribes to its channel and has no push token of its own to rotate")
      }
    }
  }

  /// `broadcast_channels`: each `{id, storage: none | most_recent, updates: {interval}, active: {from, to}}`
  /// (the window on the UTC clock); at most `system.live_activities.max_broadcast_channels`.
  static func decodeBroadcastChannels(_ value: YAMLValue, limit: Int) throws(ScenarioError)
    -> [BroadcastChannelConfiguration]
  {
    var channels: [BroadcastChannelConfiguration] = []
    let nodes = try value.sequence()
    guard nodes.count <= limit else {
      throw value.error(
        "\(nodes.count) broadcast channels, above the \(limit) active channels an app may have "
          + "(system.live_activities.max_broadcast_channels)")
    }
    for (index, node) in nodes.enumerated() {
      let element = YAMLValue(
        node: node, path: ScenarioPath.widgetPath(node: node, index: index, base: value.path), source: value.source)
      var reader = try element.mapping()
      let idValue = try reader.required("id", "the channel's name, e.g. match_scores")
      let id = try idValue.string()
      if channels.contains(where: { $0.id == id }) { throw idValue.error("duplicate broadcast channel '\(id)'") }
      var channel = BroadcastChannelConfiguration(id: id)
      if let storage = reader.optional("storage") { channel.storage = try storage.choice(BroadcastStorage.self) }
      if let updates = reader.optional("updates") {
        var section = try updates.mapping()
        let interval = try section.required("interval", "time between the channel's updates, e.g. 5m")
        channel.updateInterval = try DistributionReader.read(interval, quantity: .duration)
        try section.finish()
      }
      if let active = reader.optional("active") {
        let window = try decodeWindow(active)
        channel.activeWindow = window
        if channel.updateInterval.mean >= window.asleepHours * 3_600 {
          active.warn(
            "the window is open \(window.asleepHours) h and updates come on average "
              + "\(channel.updateInterval.mean / 60) min apart: the first comes an interval after it opens, so "
              + "most windows see none")
        }
      }
      try reader.finish()
      channels.append(channel)
    }
    return channels
  }

  /// `immediate`, `default`, or `{after: duration}`.
  static func decodeDismissal(_ value: YAMLValue) throws(ScenarioError) -> ActivityDismissal {
    if case .mapping = value.node {
      var reader = try value.mapping()
      let after = try reader.required("after", "how long the ended activity stays, e.g. 30m")
      let duration = try after.duration(in: 0...(30 * 86_400))
      try reader.finish()
      return .after(duration)
    }
    switch try value.scalarText().trimmingWhitespace {
    case "immediate": return .immediate
    case "default": return .systemDefault
    default:
      throw value.error("expected immediate, default or {after: duration}, got \(value.shown)")
    }
  }
}
