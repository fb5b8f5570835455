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
  /// once per device; before then they are not on its screens. Nil: ``spread``'s default.
  public var installTime: Distribution?
  /// How much phones differ where the scenario does not say: a simulated fleet is otherwise more alike than
  /// a real one, and the server sees that as peaks no real fleet makes.
  public var spread = FleetSpread.standard

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

  /// Whether the scenario varies `parameter` itself (`vary`).
  public func varies(_ parameter: DeviceParameter) -> Bool {
    variations.contains { $0.parameter == parameter }
  }
}

extension FleetConfiguration {
  /// Whole days the default install spread reaches (`fleet.spread.install` on a fleet without
  /// `fleet.install_time`), 0 when phones are not spread: the default `warmup_days`, so that no phone's
  /// measured days begin before its widgets are added (the days before would count part days as whole ones,
  /// and every per-day figure would read low).
  public var installSpreadDays: Int {
    guard devices > 1, installTime == nil, let install = spread.install, install > .zero else { return 0 }
    return Int((install.seconds / 86_400).rounded(.up))
  }
}

/// The default differences between the phones of a fleet (more than one device), each applied unless the
/// scenario gives its own: without them every phone would wake at the same second, add its widgets at the
/// same midnight and start a scheduled Live Activity at the same moment. Each is an assumption [A]; nil pins
/// it (every phone alike), which `validate` and `run` warn about in fleets.
public struct FleetSpread: Sendable, Equatable {
  /// Standard deviation of a normal shift of `user.sleep.from` and, drawn apart, `user.sleep.to`, per phone
  /// (unless `fleet.vary` varies them).
  public var sleep: SimDuration?
  /// Widgets are added at a uniform time in the first `install` of the run, per phone (unless
  /// `fleet.install_time` is given).
  public var install: SimDuration?
  /// Standard deviation of a normal shift of every `live_activities[].starts.at` time the user or the app
  /// starts (`start: app` / `app_request`), per phone and kind. Push-to-start times are the server's, the
  /// same for every phone: ``ServerConfiguration/pushRatePerSecond`` paces them instead.
  public var starts: SimDuration?

  public init(sleep: SimDuration?, install: SimDuration?, starts: SimDuration?) {
    self.sleep = sleep
    self.install = install
    self.starts = starts
  }

  /// 45 minutes either way for bedtimes and wake-ups (a population's wake times differ by about an hour
  /// [A]), installs over the first day [A], scheduled starts within 10 minutes or so [A].
  public static let standard = FleetSpread(sleep: .minutes(45), install: .hours(24), starts: .minutes(10))
  /// Every phone alike.
  public static let pinned = FleetSpread(sleep: nil, install: nil, starts: nil)
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
