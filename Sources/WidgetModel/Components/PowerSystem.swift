import Results
import SimulationEngine

/// The phone's power state: on, in Low Power Mode, or switched off after its battery ran flat (Low Power
/// Mode's hysteresis carries on while it is off, so it may restart in it).
enum PowerState: Equatable {
  case normal
  case lowPowerMode
  case off(lowPowerMode: Bool)

  var isLowPowerMode: Bool {
    switch self {
    case .normal: false
    case .lowPowerMode: true
    case .off(let lowPowerMode): lowPowerMode
    }
  }

  var isOff: Bool {
    if case .off = self { return true }
    return false
  }

  /// A flat phone starts again once charging brings it to 5% [A] (and its available charge is back, for
  /// KiBaM). Without a charger it stays off, even when a KiBaM battery's bound charge flows back into the
  /// available well: nobody presses the button of a phone that just died [A].
  static let powerOnStateOfCharge = 0.05

  /// The state at the end of an hour with this charge: Low Power Mode on below `threshold` and off again at
  /// `off_at` [D]; off when the battery is empty; on again at the end of an hour during which it was
  /// `charging` and reached ``powerOnStateOfCharge`` with available charge.
  mutating func endOfHour(
    stateOfCharge soc: Double, batteryEmpty: Bool, charging: Bool, _ settings: LowPowerModeConfiguration
  ) -> PowerTransition {
    var lowPower = isLowPowerMode
    if settings.enabled {
      if !lowPower && soc < settings.threshold { lowPower = true }
      if lowPower && soc >= settings.offAt { lowPower = false }
    }
    let on: PowerState = lowPower ? .lowPowerMode : .normal
    switch self {
    case .normal, .lowPowerMode:
      if batteryEmpty {
        self = .off(lowPowerMode: lowPower)
        return .switchedOff
      }
      self = on
      return .none
    case .off:
      if charging && !batteryEmpty && soc >= PowerState.powerOnStateOfCharge {
        self = on
        return .switchedOn
      }
      self = .off(lowPowerMode: lowPower)
      return .none
    }
  }
}

/// What the device must do after the power system's hour: nothing, cut the radios (switched off), or
/// reboot every widget (switched on again).
enum PowerTransition: Equatable {
  case none
  case switchedOff
  case switchedOn
}

/// The power system: the battery (the ns-3 energy source: linear or KiBaM), the device's own baseline and
/// usage, the nightly charger, and the ``PowerState``. Each hour it books the device's draw, charges or
/// drains the battery by the hour's net energy, and moves its state.
struct PowerSystem {
  let device: DeviceConfiguration
  var battery: Battery
  private(set) var state = PowerState.normal
  /// Joules reported since the battery last drained (the consumers' and the device's own baseline and
  /// usage): the battery drains by them at the hour's close.
  private(set) var undrainedJoules = 0.0
  /// Share of each clock hour the user is awake, the charger is on, the schedule puts the phone on cellular.
  let awakeShareOfHour: [Double]
  let chargingShareOfHour: [Double]
  let cellularShareOfHour: [Double]

  init(_ device: DeviceConfiguration, sleep: SleepWindow) {
    self.device = device
    battery = Battery(device.battery)
    awakeShareOfHour = (0..<24).map { sleep.awakeFraction(ofHour: $0) }
    let charging = device.charging?.window
    chargingShareOfHour = (0..<24).map { Double(charging?.minutesInside(hour: $0) ?? 0) / 60 }
    let network = device.network
    // A schedule's windows may overlap (the first holding a minute decides it): counted minute by minute.
    cellularShareOfHour =
      network.windows.isEmpty
      ? Array(repeating: network.defaultNetwork == .wifi ? 0 : 1, count: 24)
      : PowerSystem.shareOfHours { network.scheduled(at: $0.sinceMidnight) != .wifi }
  }

  var isOff: Bool { state.isOff }
  var isLowPowerMode: Bool { state.isLowPowerMode }

  /// Whether the phone is on its charger now.
  func isCharging(at now: SimTime) -> Bool {
    device.charging?.window.contains(now) ?? false
  }

  /// What an hour's close did: the state's move, and the hour's last charge, Low Power Mode and charging,
  /// for the device to record.
  struct ClosedHour: Equatable {
    let transition: PowerTransition
    let stateOfCharge: Double
    let lowPowerMode: Bool
    let charging: Bool
  }

  /// A consumer's `joules`, as written down in the ledger: the battery drains by them at the hour's close.
  @inline(__always)
  mutating func report(_ joules: Double) {
    undrainedJoules += joules
  }

  /// Forgets what was reported and not yet drained: the phone switched off (its radios' cut tails cost a
  /// battery that is already flat).
  mutating func dropUndrained() {
    undrainedJoules = 0
  }

  /// Closes hour `hourIndex`: books the device's baseline (plus LTE paging for the hour's cellular share,
  /// `hourlyNetwork` when drawn) and usage while on to `deviceSubject` in `ledger`, then drains the
  /// battery over the hour by everything reported and not yet drained, less charging at the hour's mean
  /// power, then moves the state.
  mutating func closeHour(
    _ hourIndex: Int, hourlyNetwork: NetworkKind?, deviceSubject: Int, ledger: inout EnergyLedger
  ) -> ClosedHour {
    let clockHour = hourIndex % 24
    let power = device.power
    if !isOff {
      let cellularShare = hourlyNetwork.map { $0 == .wifi ? 0.0 : 1.0 } ?? cellularShareOfHour[clockHour]
      let booked = ledger.book(
        (power.baselineWatts + power.cellularPagingWatts * cellularShare) * 3_600,
        power.usageWatts * 3_600 * awakeShareOfHour[clockHour], hourIndex: hourIndex, subject: deviceSubject,
        components: (.baseline, .usage))
      undrainedJoules += booked.0
      undrainedJoules += booked.1
    }
    let chargingSeconds = device.charging == nil ? 0 : 3_600 * chargingShareOfHour[clockHour]
    let chargeJoules = (device.charging?.watts ?? 0) * chargingSeconds
    battery.apply(watts: (undrainedJoules - chargeJoules) / 3_600, seconds: 3_600)
    undrainedJoules = 0
    let soc = battery.stateOfCharge
    let transition = state.endOfHour(
      stateOfCharge: soc, batteryEmpty: battery.isEmpty, charging: chargeJoules > 0, device.lowPowerMode)
    return ClosedHour(
      transition: transition, stateOfCharge: soc, lowPowerMode: isLowPowerMode, charging: chargingSeconds > 0)
  }

  /// Share of each clock hour for which `contains` holds at the minute's start, at minute resolution.
  static func shareOfHours(_ contains: (SimTime) -> Bool) -> [Double] {
    (0..<24).map { hour in
      var minutes = 0
      for minute in 0..<60 where contains(SimTime.zero + .minutes(Int64(hour * 60 + minute))) { minutes += 1 }
      return Double(minutes) / 60
    }
  }
}
