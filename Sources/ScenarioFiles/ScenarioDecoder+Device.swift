import SimulationEngine
import WidgetModel
import Yams

/// The `device` section: battery, charging, Low Power Mode, component powers, radios, network.
extension ScenarioDecoder {
  static func decodeDevice(_ value: YAMLValue) throws(ScenarioError) -> DeviceConfiguration {
    var reader = try value.mapping()
    var device = ScenarioDecoder.defaultDevice
    if let battery = reader.optional("battery") { device.battery = try decodeBattery(battery) }
    if let charging = reader.optional("charging") { device.charging = try decodeCharging(charging) }
    if let lowPower = reader.optional("low_power_mode") { device.lowPowerMode = try decodeLowPowerMode(lowPower) }
    if let power = reader.optional("power") { device.power = try decodePower(power) }
    if let radios = reader.optional("radios") { device.radios = try decodeRadios(radios) }
    if let network = reader.optional("network") { device.network = try decodeNetwork(network) }
    try reader.finish()
    return device
  }

  /// The device a scenario file describes when it says nothing: the model's, on the files' default network
  /// (``NetworkSelection/scenarioDefault``: Wi-Fi half the hours, else LTE).
  static var defaultDevice: DeviceConfiguration {
    var device = DeviceConfiguration()
    device.network = .scenarioDefault
    return device
  }

  static func decodeBattery(_ value: YAMLValue) throws(ScenarioError) -> BatteryConfiguration {
    var reader = try value.mapping()
    var battery = BatteryConfiguration()
    let preset = reader.optional("preset")
    let capacity = reader.optional("capacity")
    if preset != nil, let capacity { throw capacity.error("give either preset or capacity, not both") }
    if let preset {
      let name = try preset.string()
      let names = BatteryConfiguration.presets.map(\.name)
      guard let joules = BatteryConfiguration.preset(name) else {
        throw preset.error(
          "unknown battery preset \(preset.shown)\(DidYouMean.hint(for: name, among: names)); "
            + "expected one of \(names.joined(separator: ", "))")
      }
      battery.capacityJoules = joules
    }
    if let capacity { battery.capacityJoules = try capacity.joules() }
    if let model = reader.optional("model") {
      if case .mapping = model.node {
        var section = try model.mapping()
        let kibam = try section.required("kibam", "{c: capacity ratio, k: rate constant per second}")
        try section.finish()
        var parameters = try kibam.mapping()
        let c = try parameters.optional("c")?.number(in: 0...1, exclusiveLower: true) ?? 0.625
        guard c < 1 else { throw kibam.error("c must be below 1 (the available well's share of the charge)") }
        let k = try parameters.optional("k")?.number(in: 0...1, exclusiveLower: true) ?? 4.5e-5
        try parameters.finish()
        battery.model = .kibam(c: c, kPerSecond: k)
      } else {
        let name = try model.scalarText().trimmingWhitespace
        switch name {
        case "linear": battery.model = .linear
        case "kibam": battery.model = .kibam(c: 0.625, kPerSecond: 4.5e-5)
        default: throw model.error("expected linear, kibam or {kibam: {c, k}}, got \(model.shown)")
        }
      }
    }
    if let soc = reader.optional("state_of_charge") { battery.initialStateOfCharge = try soc.fraction() }
    try reader.finish()
    return battery
  }

  static func decodeCharging(_ value: YAMLValue) throws(ScenarioError) -> ChargingConfiguration? {
    if case .scalar = value.node {
      guard try value.scalarText().trimmingWhitespace == "none" else {
        throw value.error("expected none or {from: \"HH:MM\", to: \"HH:MM\", power: 10W}, got \(value.shown)")
      }
      return nil
    }
    var reader = try value.mapping()
    var charging = ChargingConfiguration()
    charging.window = try DailyWindowReader(
      &reader, from: "when charging starts, e.g. \"23:30\"", to: "when charging stops, e.g. \"07:00\""
    ).window("charging window")
    if let power = reader.optional("power") { charging.watts = try power.watts(in: 0...1_000) }
    try reader.finish()
    return charging
  }

  static func decodeLowPowerMode(_ value: YAMLValue) throws(ScenarioError) -> LowPowerModeConfiguration {
    var reader = try value.mapping()
    var mode = LowPowerModeConfiguration()
    if let enabled = reader.optional("enabled") { mode.enabled = try enabled.bool() }
    if let threshold = reader.optional("threshold") { mode.threshold = try threshold.fraction() }
    let offAt = reader.optional("off_at")
    if let offAt { mode.offAt = try offAt.fraction() }
    if let factor = reader.optional("budget_factor") { mode.budgetFactor = try factor.number(in: 0...10) }
    if let factor = reader.optional("after_delay_factor") { mode.afterDelayFactor = try factor.number(in: 0...100) }
    try reader.finish()
    guard mode.offAt > mode.threshold else {
      throw (offAt ?? value).error("off_at (\(mode.offAt)) must be above threshold (\(mode.threshold))")
    }
    return mode
  }

  /// `{power: 190mW, duration: 0.3s}`.
  static func powerAndDuration(_ value: YAMLValue) throws(ScenarioError) -> (watts: Double?, seconds: Double?) {
    var reader = try value.mapping()
    let watts = try reader.optional("power")?.watts(in: 0...100)
    let seconds = try reader.optional("duration")?.seconds(in: 0...3_600)
    try reader.finish()
    return (watts, seconds)
  }

  static func decodePower(_ value: YAMLValue) throws(ScenarioError) -> DevicePowerConfiguration {
    var reader = try value.mapping()
    var power = DevicePowerConfiguration()
    if let baseline = reader.optional("baseline") { power.baselineWatts = try baseline.watts(in: 0...100) }
    if let usage = reader.optional("usage") { power.usageWatts = try usage.watts(in: 0...100) }
    if let cpu = reader.optional("cpu_active") { power.cpuActiveWatts = try cpu.watts(in: 0...100) }
    if let paging = reader.optional("cellular_paging") { power.cellularPagingWatts = try paging.watts(in: 0...100) }
    if let wake = reader.optional("wake") {
      let (watts, seconds) = try powerAndDuration(wake)
      power.wakeWatts = watts ?? power.wakeWatts
      power.wakeSeconds = seconds ?? power.wakeSeconds
    }
    if let pushWake = reader.optional("push_wake") {
      let (watts, seconds) = try powerAndDuration(pushWake)
      power.pushWakeWatts = watts ?? power.pushWakeWatts
      power.pushWakeSeconds = seconds ?? power.pushWakeSeconds
    }
    if let render = reader.optional("render") {
      var section = try render.mapping()
      if let watts = section.optional("power") { power.renderWatts = try watts.watts(in: 0...100) }
      if let perEntry = section.optional("per_entry") {
        power.renderSecondsPerEntry = try perEntry.seconds(in: 0...3_600)
      }
      try section.finish()
    }
    try reader.finish()
    return power
  }

  static func decodeRadios(_ value: YAMLValue) throws(ScenarioError) -> RadioSet {
    var reader = try value.mapping()
    var radios = RadioSet()
    if let wifi = reader.optional("wifi") { radios.wifi = try decodeRadio(wifi, defaults: radios.wifi) }
    if let lte = reader.optional("lte") { radios.lte = try decodeRadio(lte, defaults: radios.lte) }
    if let nr = reader.optional("5g") {
      var section = try nr.mapping()
      if let factor = section.optional("power_factor") { radios.nr5gPowerFactor = try factor.number(in: 0...100) }
      if let throughput = section.optional("throughput") {
        radios.nr5gThroughputBitsPerSecond = try throughput.bitsPerSecond()
      }
      try section.finish()
    }
    try reader.finish()
    return radios
  }

  static func decodeRadio(_ value: YAMLValue, defaults: RadioConfiguration) throws(ScenarioError) -> RadioConfiguration
  {
    var reader = try value.mapping()
    var radio = defaults
    if let promotion = reader.optional("promotion") {
      let (watts, seconds) = try powerAndDuration(promotion)
      radio.promotionWatts = watts ?? radio.promotionWatts
      radio.promotionSeconds = seconds ?? radio.promotionSeconds
    }
    if let tail = reader.optional("tail") {
      let (watts, seconds) = try powerAndDuration(tail)
      radio.tailWatts = watts ?? radio.tailWatts
      radio.tailSeconds = seconds ?? radio.tailSeconds
    }
    if let active = reader.optional("active") {
      var section = try active.mapping()
      if let watts = section.optional("power") { radio.activeWatts = try watts.watts(in: 0...100) }
      if let perMbps = section.optional("per_mbps") { radio.activeWattsPerMbps = try perMbps.watts(in: 0...100) }
      try section.finish()
    }
    if let throughput = reader.optional("throughput") { radio.throughputBitsPerSecond = try throughput.bitsPerSecond() }
    try reader.finish()
    return radio
  }

  static func decodeNetwork(_ value: YAMLValue) throws(ScenarioError) -> NetworkSelection {
    var reader = try value.mapping()
    var network = NetworkSelection()
    let defaultValue = reader.optional("default")
    if let kind = defaultValue { network.defaultNetwork = try kind.choice(NetworkKind.self) }
    if let cellular = reader.optional("cellular") { network.cellular = try cellular.choice(NetworkKind.self) }
    let schedule = reader.optional("schedule")
    if let schedule {
      for (index, node) in try schedule.sequence().enumerated() {
        let item = YAMLValue(node: node, path: "\(schedule.path)[\(index)]", source: value.source)
        var window = try item.mapping()
        let from = try window.required("from", "a time of day").timeOfDay()
        let toValue = try window.required("to", "a time of day")
        let to = try toValue.timeOfDay()
        if from == to {
          throw toValue.error("the window must not be empty: from and to are both \(toValue.shown)")
        }
        let kind = try window.required("network", "wifi, lte or 5g").choice(NetworkKind.self)
        try window.finish()
        network.windows.append(
          NetworkSelection.Window(
            from: TimeOfDay(hours: from.hours, minutes: from.minutes),
            to: TimeOfDay(hours: to.hours, minutes: to.minutes),
            network: kind))
      }
    }
    if let probability = reader.optional("wifi_probability") {
      if schedule != nil { throw probability.error("give either schedule or wifi_probability, not both") }
      if defaultValue != nil {
        throw probability.error(
          "give either default (one network all day) or wifi_probability (Wi-Fi drawn per hour), not both")
      }
      network.wifiProbability = try probability.probability()
    }
    try reader.finish()
    return network
  }
}
