import Fleets
import Results
import ScenarioFiles
import SimulationEngine
import Testing
import WidgetModel

@testable import Reports

/// Battery percentages of a fleet whose phones have batteries of their own sizes.
@Suite("Battery share per device")
struct BatteryShareTests {
  /// Eight phones for three days: a pushed widget and a Live Activity. Low Power Mode is off, so the battery
  /// cannot change what the widgets do (and none runs flat: checked), only what share of it they use.
  static func fleet(capacity: String) throws -> ScenarioConfiguration {
    let text = """
      name: battery-share
      days: 3
      seed: 7
      replications: 1
      device:
        low_power_mode: {enabled: false}
      fleet:
        devices: 8
        vary:
          device.battery.capacity: \(capacity)
          user.home_screen_views.per_hour: {dist: lognormal, median: 6, sigma: 0.5}
      widgets:
        - id: orders
          kind: Orders
          timeline: {policy: after, after: 30m}
          data: {changes: {per_hour: 1}, on_change: push}
      live_activities:
        - id: delivery
          starts: {per_day: 2}
      """
    return try ScenarioLoader.load(text: text, file: "battery-share.yaml").configuration
  }

  static func metric(
    _ name: String, _ subject: String, _ result: ReplicationResult, _ configuration: ScenarioConfiguration
  )
    throws -> Double
  {
    let summary = RunSummary(results: [result], subjects: RunSummary.Subjects(configuration))
    return try #require(summary.rows.first { $0.metric == name && $0.widget == subject }).values.mean
  }

  @Test("every phone at 25.96 Wh: exactly half the %/day of the same fleet at 12.98 Wh")
  func doubleCapacityHalvesTheShare() throws {
    let small = try BatteryShareTests.fleet(capacity: "{dist: constant, value: 12.98Wh}")
    let large = try BatteryShareTests.fleet(capacity: "{dist: constant, value: 25.96Wh}")
    let smallResult = FleetRunner.run(small, replication: 0, jobs: 2).result
    let largeResult = FleetRunner.run(large, replication: 0, jobs: 2).result
    #expect(smallResult.drains == 0 && largeResult.drains == 0)
    // The battery changed nothing the widgets did.
    let joules = try BatteryShareTests.metric("widgets_joules_per_day", "device", smallResult, small)
    #expect(joules > 0)
    #expect(try BatteryShareTests.metric("widgets_joules_per_day", "device", largeResult, large) == joules)
    // Each device's share of each subject is rounded to a part per trillion of its battery: halving the
    // capacity moves each rounding by at most 1 part, so the figures (per cent per day, mean over devices)
    // differ by at most 100e-12 x 4 subjects / 3 days.
    for (name, subject) in [
      ("widgets_battery_percent_per_day", "device"), ("battery_percent_per_day", "orders"),
      ("battery_percent_per_day", "widget_push"), ("battery_percent_per_day", "delivery"),
    ] {
      let smallShare = try BatteryShareTests.metric(name, subject, smallResult, small)
      let largeShare = try BatteryShareTests.metric(name, subject, largeResult, large)
      #expect(smallShare > 0, "\(name) \(subject)")
      let tolerance: Double = 100e-12 * 4 / 3
      #expect(abs(largeShare - smallShare / 2) <= tolerance, "\(name) \(subject)")
    }
    // 12.98 Wh is the default capacity too: the same figure as the books' joules over the default battery
    // (up to the part-per-trillion rounding and floating-point sums).
    let perDefaultBattery = joules / BatteryConfiguration().capacityJoules * 100
    let smallShare = try BatteryShareTests.metric("widgets_battery_percent_per_day", "device", smallResult, small)
    #expect(abs(smallShare - perDefaultBattery) <= 100e-12 * 4 / 3 + 1e-12 * perDefaultBattery)
  }

  @Test("a mixed fleet's %/day is the mean over phones of each one's joules per day over its own battery")
  func mixedFleetIsTheMeanOfPhones() throws {
    let configuration = try BatteryShareTests.fleet(capacity: "{dist: uniform, low: 8Wh, high: 20Wh}")
    let (result, devices) = FleetRunner.run(configuration, replication: 0, jobs: 2, perDevice: true)
    #expect(result.drains == 0)
    let capacities = devices.map {
      FleetDevice.draw($0.device, of: configuration, replication: 0).configuration.device.battery.capacityJoules
    }
    #expect(Set(capacities).count == devices.count, "every phone has its own battery")
    let percents = zip(devices, capacities).map { $0.joulesPerDay / $1 * 100 }
    let expected = percents.reduce(0, +) / Double(devices.count)
    let share = try BatteryShareTests.metric("widgets_battery_percent_per_day", "device", result, configuration)
    // devices.csv's joules per day are rounded to a microjoule per day (0.5e-6 J / C per device); the shares
    // to a part per trillion per subject (4 of them, over 3 days).
    let rounding = zip(devices, capacities).map { 0.5e-6 / $1 * 100 }.reduce(0, +) / Double(devices.count)
    #expect(abs(share - expected) <= rounding + 100e-12 * 4 / 3 + 1e-12 * expected)
    // Not the fleet's joules over the configuration's one capacity.
    let joules = try BatteryShareTests.metric("widgets_joules_per_day", "device", result, configuration)
    #expect(abs(share - joules / configuration.device.battery.capacityJoules * 100) > 1e-3 * expected)
  }
}
