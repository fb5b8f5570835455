import SimulationEngine

/// The phone: battery, charging, Low Power Mode, what its components draw, and which network it is on.
/// Figures and sources: docs/model.md (Energy); every default is also in Scenarios/README.md.
public struct DeviceConfiguration: Sendable {
  public var battery: BatteryConfiguration
  /// When and how fast the phone charges; nil: it never does.
  public var charging: ChargingConfiguration?
  public var lowPowerMode: LowPowerModeConfiguration
  public var power: DevicePowerConfiguration
  public var radios: RadioSet
  public var network: NetworkSelection

  public init(
    battery: BatteryConfiguration = .init(), charging: ChargingConfiguration? = .init(),
    lowPowerMode: LowPowerModeConfiguration = .init(), power: DevicePowerConfiguration = .init(),
    radios: RadioSet = .init(), network: NetworkSelection = .init()
  ) {
    self.battery = battery
    self.charging = charging
    self.lowPowerMode = lowPowerMode
    self.power = power
    self.radios = radios
    self.network = network
  }
}

/// Which battery model turns drawn energy into state of charge.
public enum BatteryModelKind: Sendable, Equatable {
  /// State of charge falls by energy / capacity.
  case linear
  /// Kinetic battery model (Manwell & McGowan): an available well holding a share `c` of the charge and a
  /// bound well feeding it at rate constant `k` (per second).
  case kibam(c: Double, kPerSecond: Double)
}

public struct BatteryConfiguration: Sendable {
  public var capacityJoules: Double
  public var model: BatteryModelKind
  /// State of charge at the start, 0...1.
  public var initialStateOfCharge: Double

  public init(
    capacityJoules: Double = BatteryConfiguration.preset("iphone15")!, model: BatteryModelKind = .linear,
    initialStateOfCharge: Double = 1
  ) {
    self.capacityJoules = capacityJoules
    self.model = model
    self.initialStateOfCharge = initialStateOfCharge
  }

  /// Capacities in joules from regulatory filings (docs/model.md, Batteries; Wh x 3600; the iPhone 16 models
  /// are given in mAh, converted at the 3.88 V nominal voltage).
  public static let presets: [(name: String, joules: Double)] = [
    ("iphone15", 12.98 * 3_600), ("iphone15plus", 16.95 * 3_600), ("iphone15pro", 12.70 * 3_600),
    ("iphone15promax", 17.11 * 3_600), ("iphone16", 3.561 * 3.88 * 3_600), ("iphone16plus", 4.674 * 3.88 * 3_600),
    ("iphone16pro", 3.582 * 3.88 * 3_600), ("iphone16promax", 4.685 * 3.88 * 3_600),
  ]

  public static func preset(_ name: String) -> Double? {
    presets.first { $0.name == name }?.joules
  }
}

/// A daily charging window (the nightstand) and the power that flows into the battery during it.
public struct ChargingConfiguration: Sendable {
  public var window: SleepWindow
  public var watts: Double

  public init(
    window: SleepWindow = SleepWindow(from: TimeOfDay(hours: 23, minutes: 30), to: TimeOfDay(hours: 7, minutes: 0)),
    watts: Double = 10
  ) {
    self.window = window
    self.watts = watts
  }
}

/// Low Power Mode: switched on below a state of charge, off again when charged past another. Its effect on
/// widgets is undocumented by Apple: the budget and after-delay factors are assumptions [A].
public struct LowPowerModeConfiguration: Sendable {
  public var enabled: Bool
  /// On below this state of charge (iOS offers it at 20%).
  public var threshold: Double
  /// Off again at or above this state of charge (iOS turns it off when charged past 80%) [D].
  public var offAt: Double
  /// Multiplies every widget's allowance while on [A].
  public var budgetFactor: Double
  /// Multiplies the system's `.after` / `.atEnd` delay while on [A].
  public var afterDelayFactor: Double

  public init(
    enabled: Bool = true, threshold: Double = 0.2, offAt: Double = 0.8, budgetFactor: Double = 0.5,
    afterDelayFactor: Double = 2
  ) {
    self.enabled = enabled
    self.threshold = threshold
    self.offAt = offAt
    self.budgetFactor = budgetFactor
    self.afterDelayFactor = afterDelayFactor
  }
}

/// What the device's components draw (docs/model.md, Energy).
public struct DevicePowerConfiguration: Sendable {
  /// Suspended, radios idle: ~25 mW (Android typical power values).
  public var baselineWatts: Double
  /// Everything else while the user is awake (screen, other apps), averaged [A]: what drains a phone in a day.
  public var usageWatts: Double
  /// Extension running: 0.4-0.8 W, default 0.5 W (Android cpu.active; PowerTutor).
  public var cpuActiveWatts: Double
  /// Awake overhead of waking a sleeping device for a build: ~190 mW for 0.1-0.5 s (Android cpu.awake).
  public var wakeWatts: Double
  public var wakeSeconds: Double
  /// Rendering one timeline entry: ~0.5 W for 0.1-0.2 s [A: no published figure].
  public var renderWatts: Double
  public var renderSecondsPerEntry: Double
  /// Waking for a delivered push [A: the awake overhead for 0.5 s].
  public var pushWakeWatts: Double
  public var pushWakeSeconds: Double
  /// LTE idle paging while on cellular: 594 mW for 43 ms every 1.28 s, ~20 mW average (ARO lte.conf).
  public var cellularPagingWatts: Double

  public init(
    baselineWatts: Double = 0.025, usageWatts: Double = 0.5, cpuActiveWatts: Double = 0.5, wakeWatts: Double = 0.19,
    wakeSeconds: Double = 0.3, renderWatts: Double = 0.5, renderSecondsPerEntry: Double = 0.15,
    pushWakeWatts: Double = 0.19, pushWakeSeconds: Double = 0.5, cellularPagingWatts: Double = 0.594 * 0.043 / 1.28
  ) {
    self.baselineWatts = baselineWatts
    self.usageWatts = usageWatts
    self.cpuActiveWatts = cpuActiveWatts
    self.wakeWatts = wakeWatts
    self.wakeSeconds = wakeSeconds
    self.renderWatts = renderWatts
    self.renderSecondsPerEntry = renderSecondsPerEntry
    self.pushWakeWatts = pushWakeWatts
    self.pushWakeSeconds = pushWakeSeconds
    self.cellularPagingWatts = cellularPagingWatts
  }
}
