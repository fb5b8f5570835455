import SimulationEngine

/// What the device does for its ``TraceRecorder`` when traced (`widgetsim run --trace`), beyond the one-line
/// records at the events themselves.
extension DeviceSimulation {
  /// Fetches `bytes` over the current network's radio for `subject` (the app's own fetch when `appSide`);
  /// returns the seconds until the last byte. A traced device records the radio's promotion, transfer and
  /// tail.
  mutating func transfer(bytes: Double, subject: Int, at now: SimTime, appSide: Bool = false) -> Double {
    let (transfer, network) = radios.transfer(
      bytes: bytes, subject: subject, at: now, appSide: appSide, &recorder)
    timeline?.transfer(transfer, network: network, tail: radios.tail(of: network))
    return transfer.seconds
  }

  /// Records the power system at the end of an hour (`now`): the charger's edges within the hour (at minute
  /// resolution, as the model's charging share), then the charge and the Low Power Mode, charging and
  /// switched-off states.
  mutating func tracePower(at now: SimTime) {
    guard timeline != nil else { return }
    let hourStart = now - SimDuration.hour
    for minute in 1..<60 {
      let time = hourStart + .minutes(Int64(minute))
      timeline?.charging(recorder.power.isCharging(at: time), at: time)
    }
    timeline?.power(
      stateOfCharge: recorder.power.battery.stateOfCharge, lowPowerMode: recorder.power.isLowPowerMode,
      charging: recorder.power.isCharging(at: now), off: recorder.power.isOff, at: now)
  }

  /// Simulates replication `replication` (the run's first by default) of fleet device `device` alone, exactly
  /// as a run simulates it (the same draws: tracing draws nothing), and returns everything its timeline shows,
  /// on the measured days' clock (after any warm-up), in time order.
  static func trace(_ configuration: ScenarioConfiguration, device: Int, replication: Int = 0) -> [TraceRecord] {
    var simulation = alone(configuration, device: device, replication: replication).simulation
    simulation.timeline = TraceRecorder()
    simulation.simulate()
    return simulation.timeline?.finish(start: simulation.measuredFrom, end: simulation.end) ?? []
  }

  /// Fleet device `device` of replication `replication` ready to run alone, as a fleet share (`FleetShare`) runs
  /// it (the fleet-wide schedules from the scenario, not the device's draws), with its draws.
  static func alone(
    _ configuration: ScenarioConfiguration, device: Int, replication: Int, schedules: FleetSchedules? = nil
  ) -> (simulation: DeviceSimulation, drawn: FleetDevice) {
    precondition(schedules.map { $0.replication == replication } ?? true, "another replication's schedules")
    let drawn = FleetDevice.draw(device, of: configuration, replication: replication)
    let simulation = DeviceSimulation(
      configuration: drawn.configuration, replication: replication, device: device, clockOffset: drawn.clockOffset,
      installed: drawn.installed, installTime: drawn.installTime,
      broadcasts: schedules?.broadcasts ?? BroadcastSchedule(configuration, replication: replication),
      events: schedules?.events ?? FleetEventSchedule(configuration, replication: replication))
    return (simulation, drawn)
  }
}
