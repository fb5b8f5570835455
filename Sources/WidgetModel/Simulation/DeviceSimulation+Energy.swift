import SimulationEngine

/// Energy bookkeeping and the battery: what each build, transfer, render and push costs, the device's
/// baseline and usage per hour, charging, Low Power Mode and running flat.
extension DeviceSimulation {
  /// The network the device is on now.
  func currentNetwork(at now: SimTime) -> NetworkKind {
    if let hourlyNetwork { return hourlyNetwork }
    return device.network.scheduled(at: SimDuration(microseconds: now.microseconds % DeviceSimulation.day.microseconds))
  }

  /// CPU energy of a build (active power x CPU time), plus the awake overhead when it had to wake the device.
  mutating func bookCPU(seconds: Double, subject: Int, at now: SimTime) {
    let hour = hourIndex(now)
    let power = device.power
    result.energy.book(power.cpuActiveWatts * seconds, hourIndex: hour, subject: subject, component: .cpu)
    if now >= awakeUntil && !foreground.isActive {
      result.energy.book(power.wakeWatts * power.wakeSeconds, hourIndex: hour, subject: subject, component: .cpu)
    }
    awakeUntil = Swift.max(awakeUntil, now + SimDuration(seconds: seconds + power.wakeSeconds))
  }

  /// Fetches `bytes` over the current network's radio; returns the seconds until the last byte.
  mutating func bookTransfer(bytes: Double, subject: Int, at now: SimTime) -> Double {
    result.serverLoad.recordFetch(bytes: bytes, at: now, offset: clockOffset)
    let network = currentNetwork(at: now)
    let transfer = radios[network.index].transfer(
      bytes: bytes, subject: subject, at: now, radio: radioConfigurations[network.index], ledger: &result.energy)
    return transfer.seconds
  }

  mutating func bookRender(entries: Int, subject: Int, at now: SimTime) {
    let power = device.power
    result.energy.book(
      power.renderWatts * power.renderSecondsPerEntry * Double(entries), hourIndex: hourIndex(now), subject: subject,
      component: .render)
  }

  mutating func bookPushWake(subject: Int, at now: SimTime) {
    let power = device.power
    result.energy.book(
      power.pushWakeWatts * power.pushWakeSeconds, hourIndex: hourIndex(now), subject: subject, component: .pushWake)
  }

  /// Closes the energy books of hour `hourIndex` (ending at `now`): finished radio tails, the device's
  /// baseline, usage and paging, then the battery over the hour (drawn energy minus charging at the
  /// hour's mean power), Low Power Mode, and switching off when flat / on again once charged.
  mutating func closeEnergyHour(hourIndex: Int, at now: SimTime, _ scheduler: inout Scheduler) {
    guard hourIndex >= 0 else { return }
    for network in NetworkKind.allCases {
      radios[network.index].settle(at: now, radio: radioConfigurations[network.index], ledger: &result.energy)
    }
    let clockHour = hourIndex % 24
    let power = device.power
    let deviceSubject = result.deviceSubject
    if !poweredOff {
      let cellularShare = hourlyNetwork.map { $0 == .wifi ? 0.0 : 1.0 } ?? cellularShareOfHour[clockHour]
      result.energy.book(
        (power.baselineWatts + power.cellularPagingWatts * cellularShare) * 3_600, hourIndex: hourIndex,
        subject: deviceSubject, component: .baseline)
      result.energy.book(
        power.usageWatts * 3_600 * awakeShareOfHour[clockHour], hourIndex: hourIndex, subject: deviceSubject,
        component: .usage)
    }
    let chargingSeconds = device.charging == nil ? 0 : 3_600 * chargingShareOfHour[clockHour]
    let chargeJoules = (device.charging?.watts ?? 0) * chargingSeconds
    battery.apply(watts: (result.energy.undrained - chargeJoules) / 3_600, seconds: 3_600)
    result.energy.undrained = 0
    let soc = battery.stateOfCharge
    let settings = device.lowPowerMode
    if settings.enabled {
      if !lowPowerModeOn && soc < settings.threshold { lowPowerModeOn = true }
      if lowPowerModeOn && soc >= settings.offAt { lowPowerModeOn = false }
    }
    if !poweredOff && battery.isEmpty {
      poweredOff = true
      result.drains += 1
      for network in NetworkKind.allCases {
        radios[network.index].cut(at: now, radio: radioConfigurations[network.index], ledger: &result.energy)
      }
      result.energy.undrained = 0
    } else if poweredOff && !battery.isEmpty && soc >= DeviceSimulation.powerOnStateOfCharge {
      poweredOff = false
      for instance in instances.indices { request(instance, cause: .reboot, &scheduler) }
    }
    result.stateOfChargePPM[hourIndex] += Int64((soc * 1e6).rounded())
    if lowPowerModeOn { result.lowPowerDevices[hourIndex] += 1 }
    if chargingSeconds > 0 { result.chargingDevices[hourIndex] += 1 }
  }

  /// A flat phone starts again once charged to 5% [A] (and its available charge is back, for KiBaM).
  static let powerOnStateOfCharge = 0.05

  /// Share of each clock hour a daily window covers, at minute resolution.
  static func shareOfHours(_ contains: (SimTime) -> Bool) -> [Double] {
    (0..<24).map { hour in
      var minutes = 0
      for minute in 0..<60 where contains(SimTime.zero + .minutes(Int64(hour * 60 + minute))) { minutes += 1 }
      return Double(minutes) / 60
    }
  }
}

extension NetworkKind {
  /// Position in `NetworkKind.allCases`, for per-radio arrays.
  var index: Int {
    switch self {
    case .wifi: 0
    case .lte: 1
    case .nr5g: 2
    }
  }
}
