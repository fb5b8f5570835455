import SimulationEngine
import WidgetModel
import Yams

/// Turns the scenario document into a ``ScenarioConfiguration``, checking every key and value.
///
/// Every key, unit, default and source is documented in Scenarios/README.md; keep the two in step.
enum ScenarioDecoder {
  /// Largest values accepted without complaint; larger ones are almost certainly mistakes.
  static let maximumInstances = 100
  static let maximumEntries = 400
  static let maximumTotalInstances = 1_000
  /// Largest memory one replication's result may take (``ReplicationResult/estimatedBytes``).
  static let maximumResultBytes = 2e9
  static let maximumLargeResultBytes = 16e9

  /// The configuration, and its work as the limit checked it.
  static func decode(_ root: YAMLValue, defaultName: String) throws(ScenarioError) -> (
    ScenarioConfiguration, WorkEstimate
  ) {
    var top = try root.mapping()
    let sections = try decodeSections(&top, defaultName: defaultName)
    try top.finish()
    warnChangesNeverLearnt(sections)
    warnUnsustainableAfter(sections)
    try checkResultSize(sections, at: top.value)
    let configuration = sections.configuration
    let rates = ScenarioRates(configuration)
    try checkRates(
      rates, configuration, events: sections.eventsValue, widgets: sections.widgetsValue,
      controls: sections.controlsValue, limits: root.source.limits)
    let work = WorkEstimate(configuration, rates: rates)
    if let refusal = work.refusal(root.source.limits) { throw top.value.error(refusal) }
    return (configuration, work)
  }

  /// Reads each top-level section in turn, the order a user meets their errors in, running a check that
  /// needs an earlier section as soon as its own is read; the caller then refuses unknown keys.
  private static func decodeSections(_ top: inout MappingReader, defaultName: String) throws(ScenarioError)
    -> Sections
  {
    var run = try decodeRunSettings(&top, defaultName: defaultName)
    let user = try top.optional("user").map { v throws(ScenarioError) in try decodeUser(v) } ?? UserConfiguration()
    let budget =
      try top.optional("budget").map { v throws(ScenarioError) in try decodeBudget(v) } ?? BudgetConfiguration()
    let system =
      try top.optional("system").map { v throws(ScenarioError) in try decodeSystem(v) } ?? SystemConfiguration()
    let device =
      try top.optional("device").map { v throws(ScenarioError) in try decodeDevice(v) } ?? defaultDevice
    let widgetsValue = try top.required("widgets", "a list of widgets, each with id, kind and timeline")
    var widgets = try decodeWidgets(widgetsValue)
    let controlsValue = top.optional("controls")
    if let controlsValue {
      widgets += try decodeControls(controlsValue, takenIDs: Set(widgets.map(\.id)))
    }
    let appValue = top.optional("app")
    let app = try appValue.map { v throws(ScenarioError) in try decodeApp(v) } ?? AppConfiguration()
    let (channels, activities) = try decodeActivitySections(&top, widgets: widgets, system: system)
    if let appValue { try checkReloadKinds(app, at: appValue, widgets: widgets) }
    let server =
      try top.optional("server").map { v throws(ScenarioError) in try decodeServer(v) } ?? ServerConfiguration()
    let eventsValue = top.optional("events")
    let events =
      try eventsValue.map { v throws(ScenarioError) in
        try decodeEvents(v, widgets: widgets, activities: activities)
      } ?? []
    let fleetValue = top.optional("fleet")
    let fleet =
      try fleetValue.map { v throws(ScenarioError) in try decodeFleet(v, widgets: widgets) } ?? FleetConfiguration()
    if let fleetValue { warnFleetSettings(fleet, at: fleetValue, user: user, activities: activities) }
    // Unwritten, the warm-up covers the default install spread: a phone whose widgets arrive during day 0
    // has a part day there, and per-day figures over it would read low.
    let installDays = fleet.installSpreadDays
    if run.warmupValue == nil, installDays > 0,
      run.days + installDays <= top.value.source.limits.maximum(ScenarioLimits.days)
    {
      run.warmupDays = installDays
    }
    return Sections(
      run: run, user: user, budget: budget, system: system, device: device, widgets: widgets, app: app,
      channels: channels, activities: activities, server: server, events: events, fleet: fleet,
      widgetsValue: widgetsValue, controlsValue: controlsValue, eventsValue: eventsValue)
  }

  /// The keys that say what to run rather than what is simulated: name, days, warm-up, seed, start date and
  /// replications. A `sweep` section is refused first: such a file is run by another command.
  private static func decodeRunSettings(_ top: inout MappingReader, defaultName: String) throws(ScenarioError)
    -> RunSettings
  {
    if let sweep = top.optional("sweep") {
      throw sweep.error("this file holds a sweep: run it with `widgetsim sweep`, or remove the sweep section")
    }
    let name = try top.optional("name")?.string() ?? defaultName
    let days = try top.optional("days")?.count(ScenarioLimits.days) ?? 7
    let warmupValue = top.optional("warmup_days")
    let warmupDays = try warmupValue?.integer(in: 0...ScenarioLimits.days.large) ?? 0
    let seed = try top.optional("seed")?.unsigned64() ?? 1
    let startDate = try top.optional("start_date").map { v throws(ScenarioError) in
      guard let date = CalendarDate(iso: try v.string()) else {
        throw v.error("expected a date written YYYY-MM-DD, e.g. 2026-01-05")
      }
      return date
    }
    let replications = try top.optional("replications")?.count(ScenarioLimits.replications) ?? 5
    return RunSettings(
      name: name, days: days, warmupDays: warmupDays, warmupValue: warmupValue, seed: seed, startDate: startDate,
      replications: replications)
  }

  /// `broadcast_channels` and `live_activities`: the channels first, since activities subscribe to them, then
  /// a warning for each channel no activity subscribes to.
  private static func decodeActivitySections(
    _ top: inout MappingReader, widgets: [WidgetConfiguration], system: SystemConfiguration
  ) throws(ScenarioError) -> ([BroadcastChannelConfiguration], [LiveActivityConfiguration]) {
    let channelsValue = top.optional("broadcast_channels")
    let channels =
      try channelsValue.map { v throws(ScenarioError) in
        try decodeBroadcastChannels(v, limit: system.liveActivities.maxBroadcastChannels)
      } ?? []
    let activities =
      try top.optional("live_activities").map { v throws(ScenarioError) in
        try decodeLiveActivities(
          v, widgetIDs: Set(widgets.map(\.id)), channels: channels,
          burstKinds: Dictionary(
            widgets.filter { $0.data.scheduled?.isBursty ?? false }.map { ($0.kind, $0.dataKey) },
            uniquingKeysWith: { first, _ in first }))
      } ?? []
    if let channelsValue {
      for (index, channel) in channels.enumerated() where !activities.contains(where: { $0.broadcastChannel == index })
      {
        channelsValue.warn("broadcast channel '\(channel.id)' has no Live Activity subscribed (updates.broadcast)")
      }
    }
    return (channels, activities)
  }

  // MARK: - User

  static func decodeUser(_ value: YAMLValue) throws(ScenarioError) -> UserConfiguration {
    var reader = try value.mapping()
    var user = UserConfiguration()
    if let sleep = reader.optional("sleep") {
      var window = try sleep.mapping()
      let times = try DailyWindowReader(
        &window, from: "a time of day, e.g. \"23:30\"", to: "a time of day, e.g. \"07:00\"")
      try window.finish()
      user.sleep = try times.window("sleep window")
    }
    try decodeViews(from: &reader, into: &user)
    if let carplay = reader.optional("carplay") { try decodeCarPlay(carplay, into: &user) }
    if let opens = reader.optional("app_opens") {
      var section = try opens.mapping()
      if let perDay = section.optional("per_day") { user.appOpensPerDay = try perDay.number(in: 0...10_000) }
      if let session = section.optional("session") {
        user.appSession = try DistributionReader.read(session, quantity: .duration)
      }
      if let profile = section.optional("profile") {
        user.appOpensProfile = try opensProfile(profile, sleep: user.sleep)
      }
      try section.finish()
    }
    if let share = reader.optional("widget_open_share") { user.widgetOpenShare = try share.probability() }
    if let audio = reader.optional("audio_sessions") {
      var section = try audio.mapping()
      if let perDay = section.optional("per_day") { user.audioSessionsPerDay = try perDay.number(in: 0...1_000) }
      if let session = section.optional("session") {
        user.audioSession = try DistributionReader.read(session, quantity: .duration)
      }
      try section.finish()
    }
    try reader.finish()
    return user
  }

  /// The user's keys for how often each surface is looked at, from `home_screen_views` to
  /// `dynamic_island_views`; warns when `smart_stack_probability` is given to a stack rule that ignores it.
  private static func decodeViews(from reader: inout MappingReader, into user: inout UserConfiguration)
    throws(ScenarioError)
  {
    if let views = reader.optional("home_screen_views") {
      user.homeScreenViews = try hourlyRate(views, allowPerDay: false)
    }
    if let views = reader.optional("lock_screen_views") {
      user.lockScreenViews = try hourlyRate(views, allowPerDay: false)
    }
    if let probability = reader.optional("other_page_probability") {
      user.otherPageProbability = try probability.probability()
    }
    let stackProbability = reader.optional("smart_stack_probability")
    if let stackProbability { user.smartStackProbability = try stackProbability.probability() }
    if let views = reader.optional("standby_views") { user.standbyViewsPerHour = try perHour(views) }
    if let stack = reader.optional("smart_stack") { user.smartStack = try decodeSmartStack(stack) }
    if let stackProbability, user.smartStack.rule != .fixed {
      stackProbability.warn(
        "applies only with smart_stack: {rule: fixed}; the relevance rule (the default) shows each stack widget "
          + "by its relevance instead")
    }
    if let views = reader.optional("control_center_views") {
      user.controlCenterViews = try hourlyRate(views, allowPerDay: false)
    }
    if let views = reader.optional("dynamic_island_views") {
      var section = try views.mapping()
      if let share = section.optional("expanded_share") { user.dynamicIslandExpandedShare = try share.probability() }
      user.dynamicIslandViews = try hourlyRate(from: &section, views, allowPerDay: false)
      try section.finish()
    }
  }

  /// `user.carplay`: the drive's length, views per hour while driving, and how often drives start.
  private static func decodeCarPlay(_ carplay: YAMLValue, into user: inout UserConfiguration) throws(ScenarioError) {
    var section = try carplay.mapping()
    if let drive = section.optional("drive") {
      user.carplayDrive = try DistributionReader.read(drive, quantity: .duration)
    }
    if let views = section.optional("views_per_hour") { user.carplayViewsPerHour = try views.number(in: 0...3_600) }
    user.carplayDrives = try hourlyRate(from: &section, carplay, allowPerDay: true)
    try section.finish()
  }

  /// `{per_hour: x}`, `{per_day: x}` (spread evenly over 24 h) or `{profile: [24 values per hour]}`.
  static func hourlyRate(_ value: YAMLValue, allowPerDay: Bool) throws(ScenarioError) -> HourlyRate {
    var reader = try value.mapping()
    let rate = try hourlyRate(from: &reader, value, allowPerDay: allowPerDay)
    try reader.finish()
    return rate
  }

  /// The rate keys of a mapping that holds other keys too (the caller finishes the reader).
  static func hourlyRate(from reader: inout MappingReader, _ value: YAMLValue, allowPerDay: Bool)
    throws(ScenarioError) -> HourlyRate
  {
    let perHour = reader.optional("per_hour")
    let perDay = allowPerDay ? reader.optional("per_day") : nil
    let profile = reader.optional("profile")
    let given = [perHour, perDay, profile].compactMap { $0 }
    let forms = allowPerDay ? "per_hour, per_day or profile" : "per_hour or profile"
    guard given.count == 1 else {
      throw value.error(given.isEmpty ? "expected a rate: \(forms)" : "give only one of \(forms)")
    }
    if let perHour { return HourlyRate(perHour: try perHour.number(in: 0...100_000)) }
    if let perDay { return HourlyRate(perHour: try perDay.number(in: 0...2_400_000) / 24) }
    return HourlyRate(profile: try hourlyProfile(profile!))  // exactly one of the three is present
  }

  /// A list of 24 non-negative numbers, one per clock hour from 00:00.
  static func hourlyProfile(_ profileValue: YAMLValue) throws(ScenarioError) -> [Double] {
    let nodes = try profileValue.sequence()
    guard nodes.count == 24 else {
      throw profileValue.error("an hourly profile has 24 values (one per clock hour from 00:00), got \(nodes.count)")
    }
    var rates: [Double] = []
    for (hour, node) in nodes.enumerated() {
      rates.append(
        try YAMLValue(node: node, path: "\(profileValue.path)[\(hour)]", source: profileValue.source).number(
          in: 0...100_000))
    }
    return rates
  }

  /// `user.app_opens.profile`: 24 weights, one per local clock hour from 00:00, some of them on waking hours.
  static func opensProfile(_ value: YAMLValue, sleep: SleepWindow) throws(ScenarioError) -> [Double] {
    let weights = try hourlyProfile(value)
    guard (0..<24).contains(where: { weights[$0] > 0 && sleep.awakeFraction(ofHour: $0) > 0 }) else {
      throw value.error("the profile puts no weight on a waking hour (user.sleep): no open could happen")
    }
    return weights
  }

  static func perHour(_ value: YAMLValue) throws(ScenarioError) -> Double {
    var reader = try value.mapping()
    let rate = try reader.required("per_hour", "events per hour").number(in: 0...100_000)
    try reader.finish()
    return rate
  }

  static func perDay(_ value: YAMLValue) throws(ScenarioError) -> Double {
    var reader = try value.mapping()
    let rate = try reader.required("per_day", "events per day").number(in: 0...1_000_000)
    try reader.finish()
    return rate
  }

  // MARK: - Budget and system

  static func decodeBudget(_ value: YAMLValue) throws(ScenarioError) -> BudgetConfiguration {
    var reader = try value.mapping()
    var budget = BudgetConfiguration()
    if let perDay = reader.optional("per_day") {
      var range = try perDay.mapping()
      if let min = range.optional("min") { budget.minPerDay = try min.number(in: 0...100_000) }
      let maxValue = range.optional("max")
      if let maxValue { budget.maxPerDay = try maxValue.number(in: 0...100_000) }
      try range.finish()
      guard budget.maxPerDay >= budget.minPerDay else {
        throw (maxValue ?? perDay).error(
          "max (\(budget.maxPerDay)) must be at least min (\(budget.minPerDay))")
      }
    }
    if let views = reader.optional("engaged_views_per_day") {
      budget.engagedViewsPerDay = try views.number(in: 0...1_000_000, exclusiveLower: true)
    }
    if let refill = reader.optional("refill") { budget.refill = try refill.choice(BudgetRefill.self) }
    if let interval = reader.optional("min_interval") { budget.minInterval = try interval.duration(in: 0...86_400) }
    if let days = reader.optional("learning_days") {
      budget.learningDays = try days.integer(in: 0...ScenarioLimits.days.large)
    }
    if let factor = reader.optional("learning_factor") { budget.learningFactor = try factor.number(in: 1...100) }
    if let debug = reader.optional("debug") { budget.debug = try debug.bool() }
    try reader.finish()
    return budget
  }

  static func decodeSystem(_ value: YAMLValue) throws(ScenarioError) -> SystemConfiguration {
    var reader = try value.mapping()
    var system = SystemConfiguration()
    if let delay = reader.optional("after_delay") {
      system.afterDelay = try DistributionReader.read(delay, quantity: .duration)
    }
    if let delay = reader.optional("at_end_single_entry_delay") {
      system.atEndSingleEntryDelay = try DistributionReader.read(delay, quantity: .duration)
    }
    if let window = reader.optional("coalesce_window") { system.coalesceWindow = try window.duration(in: 0...86_400) }
    if let deferral = reader.optional("defer_while_asleep") { system.deferWhileAsleep = try deferral.bool() }
    if let changes = reader.optional("environment_changes") { system.environmentChangesPerDay = try perDay(changes) }
    if let reboots = reader.optional("reboots") { system.rebootsPerDay = try perDay(reboots) }
    if let added = reader.optional("widget_added_reload") { system.widgetAddedReload = try added.bool() }
    if let ceiling = reader.optional("memory_ceiling") { system.memoryCeilingBytes = try ceiling.bytes(in: 1...1e12) }
    if let stuck = reader.optional("jetsam_stuck_probability") {
      system.jetsamStuckProbability = try stuck.probability()
    }
    if let network = reader.optional("network") {
      var section = try network.mapping()
      if let latency = section.optional("latency") { system.network.latencySeconds = try latency.seconds(in: 0...600) }
      try section.finish()
    }
    if let push = reader.optional("widget_push") { system.widgetPush = try decodeWidgetPush(push) }
    try decodeLaunchingPushes(&reader, into: &system)
    if let delay = reader.optional("app_reload_delay") {
      system.appReloadDelay = try DistributionReader.read(delay, quantity: .duration)
    }
    if let window = reader.optional("ignore_reloads_after_widget_open") {
      system.ignoreReloadsAfterWidgetOpen = try window.duration(in: 0...86_400)
    }
    if let activities = reader.optional("live_activities") {
      system.liveActivities = try decodeActivitySystem(activities)
    }
    if let controls = reader.optional("controls") {
      var section = try controls.mapping()
      if let budget = section.optional("budget") {
        if case .mapping = budget.node {
          system.controlBudgetPerDay = try perDay(budget)
        } else {
          guard try budget.scalarText().trimmingWhitespace == "off" else {
            throw budget.error("expected off (no budget, the default) or {per_day: N}, got \(budget.shown)")
          }
          system.controlBudgetPerDay = nil
        }
      }
      try section.finish()
    }
    if let standby = reader.optional("standby") {
      var section = try standby.mapping()
      if let refresh = section.optional("refresh") {
        system.standbyRefreshInterval = try refresh.duration(in: 60...86_400)
      }
      if let atNight = section.optional("at_night") { system.standbyAtNight = try atNight.bool() }
      try section.finish()
    }
    try reader.finish()
    return system
  }
}
