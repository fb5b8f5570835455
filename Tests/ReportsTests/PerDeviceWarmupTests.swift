import Fleets
import Results
import ScenarioFiles
import SimulationEngine
import Testing

@testable import Reports
@testable import WidgetModel

/// devices.csv after a warm-up: every column is the measured days' alone, as the run's own figures are.
@Suite("Per-device figures with and without a warm-up")
struct PerDeviceWarmupTests {
  /// Ten phones for three measured days, `warmup` days before them, a widget polling every 15 minutes.
  static func fleet(warmup: Int) throws -> ScenarioConfiguration {
    let text = """
      name: per-device
      days: 3
      warmup_days: \(warmup)
      seed: 11
      replications: 1
      fleet: {devices: 10}
      widgets:
        - id: headlines
          kind: NewsHeadlines
          timeline: {policy: after, after: 15m}
      """
    return try ScenarioLoader.load(text: text, file: "per-device.yaml").configuration
  }

  @Test("each devices.csv column agrees with the run's figures, with and without a warm-up", arguments: [0, 1])
  func columnsAgree(warmup: Int) throws {
    let configuration = try PerDeviceWarmupTests.fleet(warmup: warmup)
    let (result, devices) = FleetRunner.run(configuration, replication: 0, jobs: 2, perDevice: true)
    #expect(devices.count == 10 && result.drains == 0)
    let summary = RunSummary(results: [result], subjects: RunSummary.Subjects(configuration))
    func metric(_ name: String, _ subject: String) throws -> Double {
      try #require(summary.rows.first { $0.metric == name && $0.widget == subject }).values.mean
    }
    let count = Double(devices.count)
    // reloads_per_day: each phone's over the measured days; their mean is the run's.
    let reloads = devices.map(\.reloadsPerDay).reduce(0, +) / count
    let runReloads = try metric("reloads_per_day", "headlines")
    #expect(abs(reloads - runReloads) <= 1e-8 * runReloads, "\(reloads) vs \(runReloads)")
    // joules_per_day (and mwh_per_day, battery_percent_per_day, derived from it): the measured hours' energy,
    // not a booking made after the warm-up for its last hour, which the run's figures drop with it.
    let joules = devices.map(\.joulesPerDay).reduce(0, +) / count
    let runJoules = try metric("widgets_joules_per_day", "device")
    // Each phone's energy is in the books' microjoules: rounding moves the mean by well under 1e-6 J/day.
    #expect(abs(joules - runJoules) <= 1e-6, "\(joules) vs \(runJoules)")
    // min_state_of_charge: the phone's lowest hour of the measured days. No battery ran flat, so none is 0;
    // and the run's lowest hour of the fleet's mean charge is at least the phones' mean lowest.
    for device in devices {
      #expect(device.minimumStateOfCharge > 0 && device.minimumStateOfCharge <= 1, "device \(device.device)")
    }
    let lowest = devices.map(\.minimumStateOfCharge).reduce(0, +) / count
    let runLowest = try metric("min_state_of_charge", "device") / 100
    #expect(lowest <= runLowest + 1e-9, "\(lowest) vs \(runLowest)")
    // staleness_p95_s: measured views only (the warm-up's are forgotten at its end), never negative.
    #expect(devices.allSatisfy { !($0.stalenessP95Seconds < 0) })
    #expect(devices.allSatisfy { $0.widgetsInstalled == 1 && $0.clockOffsetHours == 0 })
  }

  /// Each phone's minimum state of charge after a warm-up is its own lowest hour of the measured days, as
  /// the same phone run alone (and so nothing else in its result) shows hour by hour; not 0.00, not a
  /// warm-up hour, not another phone's.
  @Test("min_state_of_charge after a warm-up is the phone's lowest measured hour")
  func minimumAfterWarmup() throws {
    let configuration = try PerDeviceWarmupTests.fleet(warmup: 1)
    let (_, devices) = FleetRunner.run(configuration, replication: 0, jobs: 2, perDevice: true)
    let measured = configuration.warmupDays * 24..<configuration.simulatedDays * 24
    for device in devices {
      let drawn = FleetDevice.draw(device.device, of: configuration, replication: 0)
      let alone = DeviceSimulation.run(drawn, replication: 0, device: device.device)
      let hourly = alone.stateOfChargePPM.map { Double($0) / 1e6 }
      let lowest = try #require(hourly[measured].min())
      #expect(device.minimumStateOfCharge == lowest, "device \(device.device)")
      #expect(device.minimumStateOfCharge > 0)
    }
  }
}
