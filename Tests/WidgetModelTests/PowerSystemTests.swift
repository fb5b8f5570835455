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
    #expect(ledger.undrained == 0)
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
}
