import Results
import SimulationEngine
import WidgetModel
import Yams

/// The scenario's top-level sections once read, and the checks that need several of them at once.
extension ScenarioDecoder {
  /// The keys that say what to run rather than what is simulated.
  struct RunSettings {
    let name: String
    let days: Int
    /// As written; unwritten, the days the fleet's default install spread reaches (``FleetConfiguration/installSpreadDays``).
    var warmupDays: Int
    /// Where `warmup_days` is written, if it is: warm-up and measured days together are checked there.
    let warmupValue: YAMLValue?
    let seed: UInt64
    let startDate: CalendarDate?
    let replications: Int
  }

  /// Every top-level section as read, with where the checks of the whole scenario report their findings.
  struct Sections {
    let run: RunSettings
    let user: UserConfiguration
    let budget: BudgetConfiguration
    let system: SystemConfiguration
    let device: DeviceConfiguration
    /// The widgets, then the controls.
    let widgets: [WidgetConfiguration]
    let app: AppConfiguration
    let channels: [BroadcastChannelConfiguration]
    let activities: [LiveActivityConfiguration]
    let server: ServerConfiguration
    let events: [FleetEventConfiguration]
    let fleet: FleetConfiguration
    let widgetsValue: YAMLValue
    let controlsValue: YAMLValue?
    let eventsValue: YAMLValue?

    /// The scenario's configuration, built from the sections on each read (which lists every widget
    /// instance): read it once, after every check of its size has passed.
    var configuration: ScenarioConfiguration {
      var configuration = ScenarioConfiguration(
        name: run.name, days: run.days, seed: run.seed, replications: run.replications, user: user, budget: budget,
        system: system, device: device,
        widgets: widgets, app: app, liveActivities: activities, broadcastChannels: channels, fleet: fleet)
      configuration.warmupDays = run.warmupDays
      if let startDate = run.startDate { configuration.startDate = startDate }
      configuration.events = events
      configuration.server = server
      return configuration
    }
  }

  /// `app.on_open: {reload_kinds: [...]}` may name only kinds some widget or control has: checked once both
  /// the widgets and the app are read, at the list in the app section.
  static func checkReloadKinds(_ app: AppConfiguration, at appValue: YAMLValue, widgets: [WidgetConfiguration])
    throws(ScenarioError)
  {
    guard case .reloadKinds(let names) = app.onOpen else { return }
    var section = try appValue.mapping()
    var open = try section.required("on_open", "").mapping()
    let list = try open.required("reload_kinds", "")
    for name in names where !widgets.contains(where: { $0.kind == name }) {
      throw list.error("kind '\(name)', which no widget or control has")
    }
  }

  /// Warns of fleet settings that do not do what they seem: Live Activities every phone starts at the same
  /// second, and a varied smart stack probability the stack's rule ignores.
  static func warnFleetSettings(
    _ fleet: FleetConfiguration, at fleetValue: YAMLValue, user: UserConfiguration,
    activities: [LiveActivityConfiguration]
  ) {
    if fleet.devices > 1, fleet.spread.starts == nil,
      let activity = activities.first(where: { $0.start != .pushToStart && !$0.startsAt.isEmpty })
    {
      fleetValue.warn(
        "pinned in a fleet of \(fleet.devices) devices: every phone starts live_activities[\(activity.id)] at its "
          + "starts.at times to the second (fleet.spread.starts); the server will see them in step")
    }
    if user.smartStack.rule != .fixed, fleet.variations.contains(where: { $0.parameter == .smartStackProbability }) {
      fleetValue.warn(
        "fleet.vary varies user.smart_stack_probability, which applies only with smart_stack: {rule: fixed}")
    }
  }

  /// Warns of data changes the app would never act on: `on_change` reloads when the app never runs, and
  /// widgets fed only by background wakes that iOS stops for an app the user never opens.
  static func warnChangesNeverLearnt(_ sections: Sections) {
    let (system, widgets, app, user) = (sections.system, sections.widgets, sections.app, sections.user)
    // A push that launches the app (a silent push) does so only if some kind sends it and the device accepts
    // any; a launch fetches every kind, so other kinds' changes are learnt then too. Starting a Live Activity
    // opens the app.
    let silentPushRuns = system.launchingPushes.contains { kind, caps in
      caps.perHour > 0 && caps.perDay > 0
        && widgets.contains { $0.data.pushes.contains(kind) && !$0.data.changes.isZero }
    }
    let activityOpens = sections.activities.contains {
      $0.start == .app && ($0.startsPerDay > 0 || !$0.startsAt.isEmpty)
    }
    let appRuns =
      app.alwaysRunning || app.backgroundRefresh.enabled || user.appOpensPerDay > 0 || user.audioSessionsPerDay > 0
      || silentPushRuns || activityOpens
    if !appRuns && widgets.contains(where: { $0.data.onChange != .none }) {
      sections.widgetsValue.warn(
        "on_change asks the app to reload when it learns of a change, but the app never runs here (no app opens, "
          + "audio sessions, app.background_refresh or silent_push): those reloads never happen")
    }
    warnDormantWakes(
      sections.widgetsValue, widgets: widgets, user: user, app: app,
      backgroundWakes: silentPushRuns || app.backgroundRefresh.enabled, activityOpens: activityOpens)
  }

  /// Refuses a run too large to hold, before anything is built: warm-up and measured days past the days
  /// limit, more widget instances than one device takes, or a replication's result past the memory limit.
  static func checkResultSize(_ sections: Sections, at value: YAMLValue) throws(ScenarioError) {
    let limits = value.source.limits
    let simulatedDays = sections.run.warmupDays + sections.run.days
    if let warmupValue = sections.run.warmupValue, simulatedDays > limits.maximum(ScenarioLimits.days) {
      throw warmupValue.error(
        "warmup_days + days: " + limits.message(ScenarioLimits.days, value: String(simulatedDays)))
    }
    let instances = sections.widgets.reduce(0) { $0 + $1.instances * $1.placements.count }
    guard instances <= maximumTotalInstances else {
      throw sections.widgetsValue.error(
        "at most \(maximumTotalInstances) widget instances on one device, got \(instances)")
    }
    try checkResultMemory(sections, simulatedDays: simulatedDays, instances: instances, at: value)
  }

  /// Refuses a replication whose result would take more memory than the limit allows, naming what to shrink.
  static func checkResultMemory(_ sections: Sections, simulatedDays: Int, instances: Int, at value: YAMLValue)
    throws(ScenarioError)
  {
    let limits = value.source.limits
    let (fleet, server) = (sections.fleet, sections.server)
    // The result's arrays (hourly reload counters above all) as they are allocated.
    let bytes = ReplicationResult.estimatedBytes(
      days: simulatedDays, instanceCount: instances, activityKinds: sections.activities.count,
      fleet: fleet.devices > 1 && server.perSecond)
    let memoryLimit = limits.allowLarge ? maximumLargeResultBytes : maximumResultBytes
    guard bytes <= memoryLimit else {
      throw value.error(
        "days x widget instances is too large: \(simulatedDays) days x \(instances) instances would need "
          + "\(Int(bytes / 1e6)) MB of counters per replication (limit \(Int(memoryLimit / 1e6)) MB"
          + (limits.allowLarge ? "" : ", \(Int(maximumLargeResultBytes / 1e6)) MB with --allow-large")
          + "; a fleet run holds one per thread); simulate fewer days or instances"
          + (fleet.devices > 1 && server.perSecond
            ? ", or leave out the per-second server load (server.per_second: false)" : ""))
    }
  }
}
