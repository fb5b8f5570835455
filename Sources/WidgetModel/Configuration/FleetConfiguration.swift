import SimulationEngine

/// Many devices: how many to simulate, how many real users they stand for, and how they differ.
public struct FleetConfiguration: Sendable {
  /// Devices simulated.
  public var devices: Int
  /// Real devices they stand for: server load is scaled by `represents / devices`.
  public var represents: Double
  /// Each device's local clock ahead of UTC, in seconds, drawn once per device (its time zone); clamped to
  /// ±14 h. Nil: every device on UTC.
  public var clockOffset: Distribution?
  /// Parameters drawn once per device.
  public var variations: [DeviceVariation]
  /// Probability that each widget (by index in `widgets`) is installed on a device; absent: always.
  public var installProbability: [Int: Double]
  /// When each device's widgets are added (seconds after the start of its first day, local time), drawn
  /// once per device; before then they are not on its screens. Nil: at the start, on every device.
  public var installTime: Distribution?

  public init(
    devices: Int = 1, represents: Double? = nil, clockOffset: Distribution? = nil, variations: [DeviceVariation] = [],
    installProbability: [Int: Double] = [:]
  ) {
    self.devices = devices
    self.represents = represents ?? Double(devices)
    self.clockOffset = clockOffset
    self.variations = variations
    self.installProbability = installProbability
  }

  /// Real devices per simulated device.
  public var scale: Double { represents / Double(devices) }
}

/// One parameter of a device drawn from a distribution, once per device.
public struct DeviceVariation: Sendable {
  public var parameter: DeviceParameter
  public var distribution: Distribution

  public init(parameter: DeviceParameter, distribution: Distribution) {
    self.parameter = parameter
    self.distribution = distribution
  }
}

/// The parameters a fleet may vary per device. Drawn values are clamped into each parameter's valid range.
public enum DeviceParameter: Sendable, Hashable {
  case homeScreenViewsPerHour
  case lockScreenViewsPerHour
  case otherPageProbability
  case smartStackProbability
  case standbyViewsPerHour
  case appOpensPerDay
  case audioSessionsPerDay
  case budgetMinPerDay
  case budgetMaxPerDay
  case engagedViewsPerDay
  case batteryCapacityJoules
  case initialStateOfCharge
  case usageWatts
  case baselineWatts
  case chargingWatts
  case wifiProbability
  /// Seconds added to the scenario's `user.sleep.from` / `user.sleep.to` (wrapped to the clock).
  case sleepFromShiftSeconds
  case sleepToShiftSeconds
  /// Of the widget at this index in `widgets`.
  case tapsPerDay(widget: Int)
  case dataChangesPerHour(widget: Int)
  case afterIntervalSeconds(widget: Int)

  /// A shift of a clock time, within a day either way.
  static func clockShift(_ seconds: Double) -> SimDuration {
    SimDuration(seconds: Swift.min(Swift.max(seconds, -86_400), 86_400))
  }

  /// Sets the parameter on a device's configuration, clamped into its valid range.
  public func apply(_ value: Double, to configuration: inout ScenarioConfiguration) {
    let value = value.isFinite ? value : 0
    let rate = Swift.min(Swift.max(value, 0), 100_000)
    let probability = Swift.min(Swift.max(value, 0), 1)
    switch self {
    case .homeScreenViewsPerHour: configuration.user.homeScreenViews = HourlyRate(perHour: rate)
    case .lockScreenViewsPerHour: configuration.user.lockScreenViews = HourlyRate(perHour: rate)
    case .otherPageProbability: configuration.user.otherPageProbability = probability
    case .smartStackProbability: configuration.user.smartStackProbability = probability
    case .standbyViewsPerHour: configuration.user.standbyViewsPerHour = rate
    case .appOpensPerDay: configuration.user.appOpensPerDay = rate
    case .audioSessionsPerDay: configuration.user.audioSessionsPerDay = rate
    case .budgetMinPerDay:
      configuration.budget.minPerDay = Swift.min(rate, configuration.budget.maxPerDay)
    case .budgetMaxPerDay:
      configuration.budget.maxPerDay = Swift.max(rate, configuration.budget.minPerDay)
    case .engagedViewsPerDay: configuration.budget.engagedViewsPerDay = Swift.max(value, 0.001)
    case .batteryCapacityJoules: configuration.device.battery.capacityJoules = Swift.max(value, 1)
    case .initialStateOfCharge: configuration.device.battery.initialStateOfCharge = probability
    case .usageWatts: configuration.device.power.usageWatts = Swift.max(value, 0)
    case .baselineWatts: configuration.device.power.baselineWatts = Swift.max(value, 0)
    case .chargingWatts: configuration.device.charging?.watts = Swift.max(value, 0)
    case .wifiProbability: configuration.device.network.wifiProbability = probability
    case .sleepFromShiftSeconds:
      configuration.user.sleep.from = configuration.user.sleep.from.shifted(by: DeviceParameter.clockShift(value))
    case .sleepToShiftSeconds:
      configuration.user.sleep.to = configuration.user.sleep.to.shifted(by: DeviceParameter.clockShift(value))
    case .tapsPerDay(let widget): configuration.widgets[widget].tapsPerDay = rate
    case .dataChangesPerHour(let widget):
      let kind = configuration.widgets[widget].dataKey
      for index in configuration.widgets.indices where configuration.widgets[index].dataKey == kind {
        configuration.widgets[index].data.changes = HourlyRate(perHour: rate)
      }
    case .afterIntervalSeconds(let widget):
      configuration.widgets[widget].timeline.policy = .after(SimDuration(seconds: Swift.max(value, 1)))
    }
  }
}
