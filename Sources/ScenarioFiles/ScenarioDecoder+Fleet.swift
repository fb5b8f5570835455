import SimulationEngine
import WidgetModel
import Yams

/// The `fleet` section: devices, the real fleet they stand for, time zones, varied parameters, installs.
extension ScenarioDecoder {
  /// The keys `fleet.vary` accepts, with the quantity their distribution is given in.
  static let fleetParameters: [(key: String, quantity: Quantity, parameter: DeviceParameter)] = [
    ("user.home_screen_views.per_hour", .plain, .homeScreenViewsPerHour),
    ("user.lock_screen_views.per_hour", .plain, .lockScreenViewsPerHour),
    ("user.other_page_probability", .plain, .otherPageProbability),
    ("user.smart_stack_probability", .plain, .smartStackProbability),
    ("user.standby_views.per_hour", .plain, .standbyViewsPerHour),
    ("user.app_opens.per_day", .plain, .appOpensPerDay),
    ("user.audio_sessions.per_day", .plain, .audioSessionsPerDay),
    ("budget.per_day.min", .plain, .budgetMinPerDay),
    ("budget.per_day.max", .plain, .budgetMaxPerDay),
    ("budget.engaged_views_per_day", .plain, .engagedViewsPerDay),
    ("device.battery.capacity", .energy, .batteryCapacityJoules),
    ("device.battery.state_of_charge", .plain, .initialStateOfCharge),
    ("device.power.usage", .power, .usageWatts),
    ("device.power.baseline", .power, .baselineWatts),
    ("device.charging.power", .power, .chargingWatts),
    ("device.network.wifi_probability", .plain, .wifiProbability),
    ("user.sleep.from", .duration, .sleepFromShiftSeconds),
    ("user.sleep.to", .duration, .sleepToShiftSeconds),
  ]

  /// Per-widget keys, after `widgets[ID].`.
  static let fleetWidgetParameters: [(key: String, quantity: Quantity, parameter: @Sendable (Int) -> DeviceParameter)] =
    [
      ("taps.per_day", .plain, { .tapsPerDay(widget: $0) }),
      ("data.changes.per_hour", .plain, { .dataChangesPerHour(widget: $0) }),
      ("timeline.after", .duration, { .afterIntervalSeconds(widget: $0) }),
    ]

  static func decodeFleet(_ value: YAMLValue, widgets: [WidgetConfiguration]) throws(ScenarioError)
    -> FleetConfiguration
  {
    var reader = try value.mapping()
    var fleet = FleetConfiguration()
    let devices = reader.optional("devices")
    if let devices { fleet.devices = try devices.count(ScenarioLimits.devices) }
    if let represents = reader.optional("represents") {
      fleet.represents = try represents.number(in: 1...1e12)
      try checkSample(fleet, represents: represents, devices: devices)
    } else {
      fleet.represents = Double(fleet.devices)
    }
    if let offset = reader.optional("timezone_offset") {
      fleet.clockOffset = try DistributionReader.read(offset, quantity: .duration)
    }
    if let vary = reader.optional("vary") { try decodeVariations(vary, widgets: widgets, into: &fleet.variations) }
    if let time = reader.optional("install_time") {
      fleet.installTime = try DistributionReader.read(time, quantity: .duration)
    }
    if let spread = reader.optional("spread") { fleet.spread = try decodeSpread(spread) }
    if let install = reader.optional("install") {
      var section = try install.mapping()
      for (index, widget) in widgets.enumerated() {
        if let probability = section.optional(widget.id) {
          fleet.installProbability[index] = try probability.probability()
        }
      }
      try section.finish()
    }
    try reader.finish()
    if fleet.devices > 1 { warnOfPinnedTimes(fleet, value) }
    return fleet
  }

  /// The simulated devices are a sample of the real phones `represents` stands for: fewer real phones than
  /// simulated ones would scale the server's load down to figures no fleet shows (a p99 of 0 requests a
  /// second). Refused at `represents`, saying which option set the devices when one did, and how to fix it.
  private static func checkSample(_ fleet: FleetConfiguration, represents: YAMLValue, devices: YAMLValue?)
    throws(ScenarioError)
  {
    guard fleet.represents < Double(fleet.devices) else { return }
    let most = Int(fleet.represents.rounded(.down))
    let real = Double(most) == fleet.represents ? "\(most)" : "\(fleet.represents)"
    var message =
      "\(real) real phones, fewer than the \(fleet.devices) devices simulated (fleet.devices): the devices are a "
      + "sample of the real fleet and server load is scaled by represents / devices"
    if let option = devices.flatMap({ represents.source.option(for: $0.path) }) {
      message +=
        "; \(option) set fleet.devices to \(fleet.devices): also give the real fleet's size, e.g. "
        + "--set fleet.represents=\(fleet.devices) (or more), or simulate at most \(most) devices"
    } else {
      message +=
        "; give represents the real fleet's size (at least \(fleet.devices)), or simulate at most \(most) devices"
    }
    throw represents.error(message)
  }

  /// `fleet.vary`: each key path (a device-wide parameter, or `widgets[ID].` and a per-widget one) with the
  /// distribution its value is drawn from on each device, in the order written.
  private static func decodeVariations(
    _ vary: YAMLValue, widgets: [WidgetConfiguration], into variations: inout [DeviceVariation]
  ) throws(ScenarioError) {
    guard case .mapping(let mapping) = vary.node else {
      throw vary.error("expected a mapping of key paths to distributions")
    }
    let names =
      fleetParameters.map(\.key)
      + widgets.flatMap { widget in
        fleetWidgetParameters.map { "widgets[\(widget.id)].\($0.key)" }
      }
    for (keyNode, valueNode) in mapping {
      let key = keyNode.string ?? ""
      let item = YAMLValue(node: valueNode, path: "\(vary.path).\(key)", source: vary.source)
      let keyValue = YAMLValue(node: keyNode, path: "\(vary.path).\(key)", source: vary.source)
      if let known = fleetParameters.first(where: { $0.key == key }) {
        let distribution = try DistributionReader.read(item, quantity: known.quantity)
        variations.append(DeviceVariation(parameter: known.parameter, distribution: distribution))
        continue
      }
      if key.hasPrefix("widgets["), let close = key.firstIndex(of: "]"),
        let index = widgets.firstIndex(where: { $0.id == String(key[key.index(key.startIndex, offsetBy: 8)..<close]) }
        ),
        let known = fleetWidgetParameters.first(where: { key == "widgets[\(widgets[index].id)].\($0.key)" })
      {
        let distribution = try DistributionReader.read(item, quantity: known.quantity)
        if known.parameter(index) == .dataChangesPerHour(widget: index), widgets[index].data.scheduled != nil {
          throw keyValue.error(
            "widgets[\(widgets[index].id)].data.changes is given as windows or bursts, not per_hour: it cannot vary")
        }
        variations.append(DeviceVariation(parameter: known.parameter(index), distribution: distribution))
        continue
      }
      throw keyValue.error(
        "cannot vary '\(key)'\(DidYouMean.hint(for: key, among: names)); variable keys: \(names.joined(separator: ", "))"
      )
    }
  }

  /// `fleet.spread`: `none` (every phone alike), or `{sleep, install, starts}`, each a duration (0 or `none`
  /// pins it); keys not given keep their default.
  static func decodeSpread(_ value: YAMLValue) throws(ScenarioError) -> FleetSpread {
    if case .scalar = value.node {
      let text = try value.string()
      guard text == "none" else {
        throw value.error("expected none (every phone alike) or a mapping {sleep, install, starts}, got '\(text)'")
      }
      return .pinned
    }
    var reader = try value.mapping()
    var spread = FleetSpread.standard
    func duration(_ key: String, _ current: SimDuration?) throws(ScenarioError) -> SimDuration? {
      guard let item = reader.optional(key) else { return current }
      if case .scalar = item.node, item.node.string == "none" { return nil }
      let duration = try item.duration(in: 0...(14 * 86_400))
      return duration > .zero ? duration : nil
    }
    spread.sleep = try duration("sleep", spread.sleep)
    spread.install = try duration("install", spread.install)
    spread.starts = try duration("starts", spread.starts)
    try reader.finish()
    return spread
  }

  /// A fleet whose phones would act in the same second because a spread is pinned: said, since the server
  /// then sees a peak no real fleet makes.
  static func warnOfPinnedTimes(_ fleet: FleetConfiguration, _ value: YAMLValue) {
    var pinned: [String] = []
    if fleet.spread.sleep == nil, !fleet.varies(.sleepFromShiftSeconds) || !fleet.varies(.sleepToShiftSeconds) {
      pinned.append("every phone sleeps and wakes at user.sleep's times (fleet.spread.sleep)")
    }
    if fleet.spread.install == nil, fleet.installTime == nil {
      pinned.append("every phone adds its widgets at 00:00 of day 0 (fleet.spread.install, fleet.install_time)")
    }
    guard !pinned.isEmpty else { return }
    value.warn(
      "pinned in a fleet of \(fleet.devices) devices: \(pinned.joined(separator: "; ")); the server will see "
        + "these phones act in the same second, a peak a real fleet does not make")
  }
}
