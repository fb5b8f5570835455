import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// The power system driven hour by hour without a simulation: what it books, how the battery drains, and
/// what each close answers for the device to record.
@Suite("Power system")
struct PowerSystemTests {
  static let night = SleepWindow(from: TimeOfDay(hours: 23, minutes: 0), to: TimeOfDay(hours: 7, minutes: 0))

  @Test("an hour on battery books baseline and usage, drains the battery by them, and answers its charge")
  func anHourOnBattery() {
    let device = DeviceConfiguration(battery: BatteryConfiguration(capacityJoules: 40_000), charging: nil)
    var power = PowerSystem(device, sleep: Self.night)
    var ledger = EnergyLedger(hours: 24, subjectCount: 1)
    // Noon: awake all hour, on Wi-Fi.
    let closed = power.closeHour(12, hourlyNetwork: nil, deviceSubject: 0, ledger: &ledger)
    let baseline = device.power.baselineWatts * 3_600
    let usage = device.power.usageWatts * 3_600
    #expect(abs(ledger.value(hourIndex: 12, subject: 0, component: .baseline) - baseline) < 1e-6)
    #expect(abs(ledger.value(hourIndex: 12, subject: 0, component: .usage) - usage) < 1e-6)
    #expect(power.undrainedJoules == 0)
    #expect(abs(closed.stateOfCharge - (1 - (baseline + usage) / 40_000)) < 1e-9)
    #expect(closed.transition == .none && !closed.charging && !closed.lowPowerMode)
  }

  @Test("a small battery runs into Low Power Mode, then flat: the close answers switchedOff, and books no more")
  func drainsToOff() {
    let device = DeviceConfiguration(battery: BatteryConfiguration(capacityJoules: 8_000), charging: nil)
    var power = PowerSystem(device, sleep: Self.night)
    var ledger = EnergyLedger(hours: 48, subjectCount: 1)
    var closes: [PowerSystem.ClosedHour] = []
    for hour in 8..<20 { closes.append(power.closeHour(hour, hourlyNetwork: nil, deviceSubject: 0, ledger: &ledger)) }
    #expect(closes.filter { $0.transition == .switchedOff }.count == 1)
    #expect(closes.contains { $0.lowPowerMode && $0.transition == .none })
    #expect(power.isOff)
    // Off, an hour books nothing (on, it would book the baseline).
    _ = power.closeHour(21, hourlyNetwork: nil, deviceSubject: 0, ledger: &ledger)
    #expect(ledger.value(hourIndex: 21, subject: 0, component: .baseline) == 0)
  }

  @Test("a consumer's booking through the device's recorder is written in the ledger and drained by the battery")
  func consumersReportToThePowerSystem() {
    let device = DeviceConfiguration(battery: BatteryConfiguration(capacityJoules: 40_000), charging: nil)
    var recorder = DeviceRecorder(
      result: ReplicationResult(replication: 0, days: 1, instanceCount: 1),
      power: PowerSystem(device, sleep: Self.night), record: DeviceRecord(measuredHours: 0..<24))
    // A widget's CPU (subject 0) at 12:30: the ledger writes it down, the power system holds it to drain.
    let cpu = 150.0
    recorder.book(cpu, hourIndex: 12, subject: 0, component: .cpu)
    #expect(abs(recorder.result.energy.value(hourIndex: 12, subject: 0, component: .cpu) - cpu) < 1e-6)
    #expect(recorder.power.undrainedJoules == cpu)
    // The hour's close drains it with the baseline and usage it books itself, and starts again from zero.
    let closed = recorder.closePowerHour(12, hourlyNetwork: nil)
    let own = (device.power.baselineWatts + device.power.usageWatts) * 3_600
    #expect(abs(closed.stateOfCharge - (1 - (cpu + own) / 40_000)) < 1e-9)
    #expect(recorder.power.undrainedJoules == 0)
    // The close's charge goes to the run's hour and to the phone's own record in one call.
    recorder.recordPowerHour(12, closed)
    let ppm = Int64((closed.stateOfCharge * 1e6).rounded())
    #expect(recorder.result.stateOfChargePPM[12] == ppm && recorder.record.minimumStateOfChargePPM == ppm)
  }
}
