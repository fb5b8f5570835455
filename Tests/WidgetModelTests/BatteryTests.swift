import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Batteries, charging and Low Power Mode")
struct BatteryTests {
  @Test("linear: 1% of a 12.98 Wh battery is 467.28 J")
  func linearOnePercent() {
    var battery = Battery(BatteryConfiguration(capacityJoules: 12.98 * 3_600))
    battery.apply(watts: 467.28, seconds: 1)
    #expect(abs(battery.stateOfCharge - 0.99) < 1e-12)
    battery.apply(watts: 1e9, seconds: 1)
    #expect(battery.stateOfCharge == 0)
    #expect(battery.isEmpty)
    battery.apply(watts: -1e9, seconds: 1)
    #expect(battery.stateOfCharge == 1)
  }

  @Test("KiBaM with a very large k behaves like the linear battery")
  func kibamLargeK() {
    let capacity = 12.98 * 3_600
    var linear = Battery(BatteryConfiguration(capacityJoules: capacity))
    var kibam = Battery(BatteryConfiguration(capacityJoules: capacity, model: .kibam(c: 0.6, kPerSecond: 1e3)))
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 5))
    for _ in 0..<20 {
      let watts = 0.2 + 1.5 * stream.uniform()
      linear.apply(watts: watts, seconds: 3_600)
      kibam.apply(watts: watts, seconds: 3_600)
      #expect(abs(kibam.stateOfCharge - linear.stateOfCharge) < 1e-9)
    }
  }

  @Test("KiBaM under constant current matches a numerical solution of its differential equations")
  func kibamClosedForm() {
    let c = 0.625
    let k = 4.5e-5
    let current = 2.0
    let start = (available: 30_000.0 * c, bound: 30_000.0 * (1 - c))
    let (y1, y2) = Battery.kibam(
      available: start.available, bound: start.bound, c: c, k: k, current: current, seconds: 7_200)
    // dy1/dt = -I + k (h2 - h1), dy2/dt = -k (h2 - h1), h1 = y1 / c, h2 = y2 / (1 - c); RK4, 0.1 s steps.
    func derivative(_ y: (Double, Double)) -> (Double, Double) {
      let flow = k * (y.1 / (1 - c) - y.0 / c)
      return (-current + flow, -flow)
    }
    var y = (start.available, start.bound)
    let h = 0.1
    for _ in 0..<72_000 {
      let k1 = derivative(y)
      let k2 = derivative((y.0 + h / 2 * k1.0, y.1 + h / 2 * k1.1))
      let k3 = derivative((y.0 + h / 2 * k2.0, y.1 + h / 2 * k2.1))
      let k4 = derivative((y.0 + h * k3.0, y.1 + h * k3.1))
      y = (y.0 + h / 6 * (k1.0 + 2 * k2.0 + 2 * k3.0 + k4.0), y.1 + h / 6 * (k1.1 + 2 * k2.1 + 2 * k3.1 + k4.1))
    }
    #expect(abs(y1 - y.0) < 1e-6 * start.available)
    #expect(abs(y2 - y.1) < 1e-6 * start.bound)
    // Charge is conserved: the wells together lose exactly I t.
    #expect(abs((start.available + start.bound) - (y1 + y2) - current * 7_200) < 1e-6)
    // Two half segments equal one whole one.
    let half = Battery.kibam(
      available: start.available, bound: start.bound, c: c, k: k, current: current, seconds: 3_600)
    let whole = Battery.kibam(available: half.0, bound: half.1, c: c, k: k, current: current, seconds: 3_600)
    #expect(abs(whole.0 - y1) < 1e-6 && abs(whole.1 - y2) < 1e-6)
  }

  /// A small battery and heavy use: Low Power Mode by the afternoon of day 0, charging at night.
  static func draining(budget: BudgetConfiguration = BudgetConfiguration(minPerDay: 40, maxPerDay: 40))
    -> ScenarioConfiguration
  {
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("w", policy: .after(.minutes(5)))], days: 2, budget: budget)
    configuration.device.battery = BatteryConfiguration(capacityJoules: 5 * 3_600)
    configuration.device.power.usageWatts = 0.4
    configuration.device.charging = ChargingConfiguration(watts: 10)
    return configuration
  }

  @Test("Low Power Mode switches on below the threshold, off at 80% when charging, and halves the allowance")
  func lowPowerMode() {
    let configuration = BatteryTests.draining()
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let hours = result.days * 24
    var turnedOn: Int?
    for hour in 0..<hours {
      let below = result.stateOfCharge[hour] < 0.2
      if turnedOn == nil {
        #expect(result.lowPowerMode[hour] == below, "hour \(hour)")
        if below { turnedOn = hour }
      } else if result.lowPowerMode[hour] {
        #expect(result.stateOfCharge[hour] < 0.8)
      }
    }
    let on = try! #require(turnedOn)
    #expect(on < 24)
    // The next hours run on half the allowance: never more than 20 of 40 left.
    for hour in (on + 1)..<(on + 3) where result.lowPowerMode[hour] {
      #expect(result.budgetRemaining(day: hour / 24, hour: hour % 24, instance: 0) <= 20 + 1e-9)
    }
    #expect(result.lowPowerMode.contains(false) && result.lowPowerMode.contains(true))
    // Charging at night turned it off again.
    #expect(result.lowPowerMode[hours - 1] == false)
  }

  @Test("a drained battery stops the device (counted); charging brings it back with a reboot reload")
  func drained() {
    var configuration = BatteryTests.draining()
    configuration.device.power.usageWatts = 1.5
    configuration.device.lowPowerMode.enabled = false
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.drains >= 1)
    #expect(result.stateOfCharge.contains(0))
    #expect(result.total(instance: 0, cause: .reboot) >= 1)
    #expect(result.stateOfCharge.allSatisfy { $0 >= 0 && $0 <= 1 })
  }

  /// A 5 Wh KiBaM battery under heavy use from 07:00 (the user wakes): flat before noon of day 0. The phone
  /// draws nothing while off, so its total charge changes only by what a charger adds.
  static func kibamDraining(_ model: BatteryModelKind, charger: ChargingConfiguration?) -> ScenarioConfiguration {
    var configuration = ModelFixtures.quiet([ModelFixtures.widget("w", policy: .after(.minutes(30)))], days: 2)
    configuration.device.battery = BatteryConfiguration(capacityJoules: 5 * 3_600, model: model)
    configuration.device.power.usageWatts = 1.5
    configuration.device.lowPowerMode.enabled = false
    configuration.device.charging = charger
    return configuration
  }

  /// Whether the phone was on during an hour: the device's baseline is booked only then.
  static func wasOn(_ result: ReplicationResult, hourIndex: Int) -> Bool {
    result.joules(day: hourIndex / 24, hour: hourIndex % 24, subject: result.deviceSubject, component: .baseline) > 0
  }

  @Test("KiBaM without a charger: flat once, never restarts although its bound charge comes back")
  func kibamNoChargerStaysOff() throws {
    let configuration = BatteryTests.kibamDraining(.kibam(c: 0.625, kPerSecond: 4.5e-5), charger: nil)
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    #expect(result.drains == 1)
    #expect(result.total(instance: 0, cause: .reboot) == 0)
    let hours = result.days * 24
    let off = try #require((0..<hours).first { !BatteryTests.wasOn(result, hourIndex: $0) })
    #expect(off < 12)
    // Off for good: no baseline, no reload after the drain.
    #expect((off..<hours).allSatisfy { !BatteryTests.wasOn(result, hourIndex: $0) })
    #expect((result.trace ?? []).allSatisfy { $0.time.hourIndex < off })
    // The bound charge left (at least 5%, the old restart rule's threshold) is all still there at the end.
    #expect(result.stateOfCharge[hours - 1] >= PowerState.powerOnStateOfCharge)
    #expect(abs(result.stateOfCharge[hours - 1] - result.stateOfCharge[off]) < 1e-12)
  }

  @Test("KiBaM with a W-watt charger restarts at the first hour end of charging that added 5% of capacity")
  func kibamChargerRestart() throws {
    // Wells that equalise at once (large k) leave no bound charge when the battery runs flat, so the charge
    // at the end of the j-th charging hour is j x W x 3600 J: on again after ceil(5% x C / (W x 3600 s)) h.
    let watts = 0.1
    let window = SleepWindow(from: TimeOfDay(hours: 14, minutes: 0), to: TimeOfDay(hours: 23, minutes: 0))
    let configuration = BatteryTests.kibamDraining(
      .kibam(c: 0.625, kPerSecond: 1e3), charger: ChargingConfiguration(window: window, watts: watts))
    let capacity = configuration.device.battery.capacityJoules
    let hoursToRestart = Int((PowerState.powerOnStateOfCharge * capacity / (watts * 3_600)).rounded(.up))
    #expect(hoursToRestart == 3)
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let off = try #require((0..<24).first { !BatteryTests.wasOn(result, hourIndex: $0) })
    #expect(off < 14, "flat before the charger comes on")
    #expect(result.stateOfCharge[13] < 1e-6)
    let reboots = (result.trace ?? []).filter { $0.cause == .reboot }
    let first = try #require(reboots.first)
    #expect(first.time == SimTime.zero + .hours(14 + Int64(hoursToRestart)))
    for hour in 14..<(14 + hoursToRestart) {
      let added = Double(hour - 13) * watts * 3_600 / capacity
      #expect(abs(result.stateOfCharge[hour] - added) < 1e-6, "hour \(hour)")
    }
    #expect(result.stateOfCharge[14 + hoursToRestart - 2] < PowerState.powerOnStateOfCharge)
    #expect(result.stateOfCharge[14 + hoursToRestart - 1] >= PowerState.powerOnStateOfCharge)
  }
}
