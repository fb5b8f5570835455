import SimulationEngine
import WidgetModel
import Yams

/// The host app: the top-level `app` section and `system.silent_push`.
extension ScenarioDecoder {
  static func decodeApp(_ value: YAMLValue) throws(ScenarioError) -> AppConfiguration {
    var reader = try value.mapping()
    var app = AppConfiguration()
    if let always = reader.optional("always_running") { app.alwaysRunning = try always.bool() }
    if let fetch = reader.optional("fetch") {
      var section = try fetch.mapping()
      if let size = section.optional("size") { app.fetch.bytes = try DistributionReader.read(size, quantity: .size) }
      if let cpu = section.optional("cpu") {
        app.fetch.cpuSeconds = try DistributionReader.read(cpu, quantity: .duration)
      }
      try section.finish()
    }
    if let refresh = reader.optional("background_refresh") {
      app.backgroundRefresh = try decodeBackgroundRefresh(refresh)
    }
    if let quits = reader.optional("force_quit") { app.forceQuitsPerDay = try perDay(quits) }
    if let reloads = reader.optional("background_reloads") {
      switch try reloads.scalarText().trimmingWhitespace {
      case "budgeted": app.backgroundReloads = .budgeted
      case "exempt": app.backgroundReloads = .exempt
      default: throw reloads.error("expected budgeted or exempt, got \(reloads.shown)")
      }
    }
    if let limit = reader.optional("background_time_limit") {
      app.backgroundTimeLimit = try limit.duration(in: 0...86_400, exclusiveLower: true)
    }
    if let open = reader.optional("on_open") { app.onOpen = try decodeOnOpen(open) }
    if let dormant = reader.optional("dormant_after") { app.dormantAfter = try decodeDormantAfter(dormant) }
    if let updates = reader.optional("event_updates") { app.eventUpdates = try updates.choice(EventUpdates.self) }
    try reader.finish()
    return app
  }

  /// `app.dormant_after`: a duration above zero (at most a year), or `none` (never dormant).
  static func decodeDormantAfter(_ value: YAMLValue) throws(ScenarioError) -> SimDuration? {
    if case .scalar = value.node, try value.scalarText().trimmingWhitespace == "none" { return nil }
    do {
      return try value.duration(in: 0...(365 * 86_400), exclusiveLower: true)
    } catch {
      throw value.error(error.message + " (or none: the app never goes dormant)")
    }
  }

  /// Warns about each widget whose new data comes only from the app's background launches (its build does
  /// not fetch, no WidgetKit push reloads it) when the user never launches the app: iOS stops those
  /// launches for an app the user has not launched for a while (`app.dormant_after`). An audio session or
  /// `always_running` lets the app learn of changes without a launch, so neither is warned about.
  static func warnDormantWakes(
    _ widgetsValue: YAMLValue, widgets: [WidgetConfiguration], user: UserConfiguration, app: AppConfiguration,
    backgroundWakes: Bool, activityOpens: Bool
  ) {
    guard backgroundWakes, user.appOpensPerDay == 0, !activityOpens, user.audioSessionsPerDay == 0,
      !app.alwaysRunning, case .sequence(let nodes) = widgetsValue.node
    else { return }
    let rule =
      if let after = app.dormantAfter {
        "so it stops getting new data once the app has gone \(after) without a launch (app.dormant_after)"
      } else {
        "which iOS stops for an app not launched for a while; app.dormant_after: none keeps it going here"
      }
    for (index, node) in nodes.enumerated() where index < widgets.count {
      let widget = widgets[index]
      guard widget.surface == .widget, widget.build.fetchProbability == 0, !widget.data.pushes.contains(.widget),
        !widget.data.changes.isZero
      else { continue }
      YAMLValue(
        node: node, path: ScenarioPath.widgetPath(node: node, index: index, base: widgetsValue.path),
        source: widgetsValue.source
      ).warn(
        "widget '\(widget.id)' gets new data only when the app is woken in the background (silent push or "
          + "background refresh: its build does not fetch and no WidgetKit push reloads it), but the user never "
          + "opens the app (user.app_opens.per_day 0), \(rule)")
    }
  }

  /// `app.on_open`: `reload_all`, `none`, or `{reload_kinds: [KIND, ...]}`.
  static func decodeOnOpen(_ value: YAMLValue) throws(ScenarioError) -> AppOpenReload {
    if case .mapping = value.node {
      var reader = try value.mapping()
      let list = try reader.required("reload_kinds", "the widget or control kinds the app reloads on open")
      var kinds: [String] = []
      for (index, node) in try list.sequence().enumerated() {
        kinds.append(try YAMLValue(node: node, path: "\(list.path)[\(index)]", source: value.source).string())
      }
      guard !kinds.isEmpty else { throw list.error("expected at least one kind (or on_open: none)") }
      try reader.finish()
      return .reloadKinds(kinds)
    }
    switch try value.scalarText().trimmingWhitespace {
    case "reload_all": return .reloadAll
    case "none": return .none
    default: throw value.error("expected reload_all, none or {reload_kinds: [KIND, ...]}, got \(value.shown)")
    }
  }

  /// `user.smart_stack`: `{rule: relevance | fixed, size, other_relevance}`.
  static func decodeSmartStack(_ value: YAMLValue) throws(ScenarioError) -> SmartStackConfiguration {
    var reader = try value.mapping()
    var stack = SmartStackConfiguration()
    if let rule = reader.optional("rule") { stack.rule = try rule.choice(SmartStackRule.self) }
    if let size = reader.optional("size") { stack.size = try size.integer(in: 1...10) }
    if let other = reader.optional("other_relevance") { stack.otherRelevance = try other.number(in: 0...1e9) }
    try reader.finish()
    return stack
  }

  /// `app.background_refresh`: `off` (or `false`), or the request's settings (present: on).
  static func decodeBackgroundRefresh(_ value: YAMLValue) throws(ScenarioError) -> BackgroundRefreshConfiguration {
    var refresh = BackgroundRefreshConfiguration()
    if case .scalar = value.node {
      switch try value.scalarText().trimmingWhitespace {
      case "off", "false", "False", "FALSE": return refresh
      default:
        throw value.error("expected off, or a mapping such as {interval: 15m}, got \(value.shown)")
      }
    }
    var reader = try value.mapping()
    refresh.enabled = true
    if let interval = reader.optional("interval") {
      refresh.interval = try interval.duration(in: 0...(30 * 86_400), exclusiveLower: true)
    }
    if let active = reader.optional("active") { refresh.activeWindow = try decodeWindow(active) }
    if let share = reader.optional("enabled_probability") { refresh.enabledProbability = try share.probability() }
    if let delay = reader.optional("delay") { refresh.delay = try delay.duration(in: 0...(30 * 86_400)) }
    if let opens = reader.optional("reference_opens") {
      refresh.referenceOpensPerDay = try opens.number(in: 0...10_000, exclusiveLower: true)
    }
    if let perDay = reader.optional("per_day") { refresh.perDay = try perDay.number(in: 0...100_000) }
    if let low = reader.optional("low_battery") { refresh.lowBattery = try low.probability() }
    try reader.finish()
    return refresh
  }

  /// The caps and delay of every push kind that launches the app, each from the section under `system` its
  /// row names (``PushKindRow/capsSection``, `silent_push`) where the scenario gives it.
  static func decodeLaunchingPushes(_ reader: inout MappingReader, into system: inout SystemConfiguration)
    throws(ScenarioError)
  {
    for kind in PushKind.launching {
      if let push = reader.optional(kind.row.capsSection.description) {
        system.setLaunchingPush(try decodeLaunchingPush(push), for: kind)
      }
    }
  }

  /// A push kind's caps and delay (`system.silent_push`).
  static func decodeLaunchingPush(_ value: YAMLValue) throws(ScenarioError) -> LaunchingPushConfiguration {
    var reader = try value.mapping()
    var push = LaunchingPushConfiguration()
    if let perHour = reader.optional("per_hour") { push.perHour = try perHour.number(in: 0...100_000) }
    if let perDay = reader.optional("per_day") { push.perDay = try perDay.number(in: 0...1_000_000) }
    if let delay = reader.optional("delay") { push.delay = try DistributionReader.read(delay, quantity: .duration) }
    if let loss = reader.optional("loss") { push.loss = try loss.number(in: 0...0.999) }
    try reader.finish()
    return push
  }
}
