import WidgetModel

/// The assumptions a run's cost figures rest on, said beside them: the network the phone fetches over, its
/// battery, and the system's rules for the app's background work. What a fetch costs moves about tenfold
/// between Wi-Fi and LTE (an LTE tail is 1.06 W for 10 s, a Wi-Fi one 119 mW for 0.25 s), so a ranking of
/// designs holds only under the assumptions it was made on.
public enum FigureAssumptions {
  /// `assumptions: network ...; battery ...; the app in the background: ...`.
  public static func line(_ configuration: ScenarioConfiguration) -> String {
    "assumptions: " + parts(configuration).joined(separator: "; ")
  }

  /// The network, the battery and the app's background rules, each naming the keys that set it.
  public static func parts(_ configuration: ScenarioConfiguration) -> [String] {
    [network(configuration.device.network), battery(configuration.device), background(configuration.app)]
  }

  static func network(_ network: NetworkSelection) -> String {
    if let probability = network.wifiProbability {
      let source = network.isScenarioDefault ? ", the default: a panel's share of time on Wi-Fi, low confidence" : ""
      return "network Wi-Fi \(percent(probability))% of hours, else \(name(network.cellular)) (device.network\(source))"
    }
    guard !network.windows.isEmpty else { return "network \(name(network.defaultNetwork)) all day (device.network)" }
    let windows = network.windows.map { "\(name($0.network)) \($0.from)-\($0.to)" }.joined(separator: ", ")
    return "network \(windows), else \(name(network.defaultNetwork)) (device.network.schedule)"
  }

  static func battery(_ device: DeviceConfiguration) -> String {
    let model =
      switch device.battery.model {
      case .linear: "linear"
      case .kibam: "KiBaM"
      }
    let lowPower =
      device.lowPowerMode.enabled
      ? "Low Power Mode below \(percent(device.lowPowerMode.threshold))%" : "no Low Power Mode"
    return "battery \(RunSummaryText.fixed(device.battery.capacityJoules / 3_600, 2)) Wh (\(model)), \(lowPower) "
      + "(device.battery, device.low_power_mode)"
  }

  static func background(_ app: AppConfiguration) -> String {
    var rules: [String] = []
    rules.append(app.backgroundRefresh.enabled ? "background refresh on" : "no background refresh")
    if app.alwaysRunning { rules.append("always running") }
    if let dormant = app.dormantAfter {
      rules.append("dormant \(RunSummaryText.fixed(dormant.seconds / 86_400, 1)) days after its last launch")
    } else {
      rules.append("never dormant")
    }
    return "the app in the background: " + rules.joined(separator: ", ") + " (app)"
  }

  static func name(_ kind: NetworkKind) -> String {
    switch kind {
    case .wifi: "Wi-Fi"
    case .lte: "LTE"
    case .nr5g: "5G"
    }
  }

  static func percent(_ share: Double) -> String {
    let value = share * 100
    return value == value.rounded() ? "\(Int(value))" : RunSummaryText.fixed(value, 1)
  }
}

extension FigureAssumptions {
  /// A sweep's assumptions: one line when every point shares them, else one per point that differs from the
  /// first (a sweep over `device.network` changes what its ranking rests on, and says so).
  public static func sweepLines(_ configurations: [ScenarioConfiguration]) -> [String] {
    guard let first = configurations.first else { return [] }
    let shared = line(first)
    let differing = configurations.indices.filter { line(configurations[$0]) != shared }
    guard !differing.isEmpty else { return [shared + " (every point)"] }
    var lines = [shared + " (point 0, and every point not listed)"]
    let common = parts(first)
    for index in differing.prefix(20) {
      // Only what differs from point 0's.
      let own = parts(configurations[index]).enumerated().filter { $0.element != common[$0.offset] }.map(\.element)
      lines.append("  point \(index): " + own.joined(separator: "; "))
    }
    return lines
  }
}
