import SimulationEngine
import Testing
import WidgetModel

@testable import ScenarioFiles

/// The capacity-planning keys: warm-up, install times, varied sleep.
@Suite("Fleet keys")
struct FleetKeysTests {
  static let base = """
    name: t
    widgets:
      - id: w
        kind: K
        family: systemSmall
        timeline: {policy: after, after: 15m}

    """

  static func load(_ extra: String, overrides: [String] = []) throws -> ScenarioConfiguration {
    try ScenarioLoader.load(
      text: base + extra, file: "t.yaml", overrides: overrides.map { try ScenarioOverride($0) }
    ).configuration
  }

  static func message(_ extra: String, overrides: [String] = []) -> String {
    do {
      _ = try load(extra, overrides: overrides)
      return "loaded"
    } catch let error as ScenarioError {
      return error.description
    } catch {
      return "\(error)"
    }
  }

  @Test("warmup_days, fleet.install_time and varied sleep times load; absent, nothing changes")
  func keysLoad() throws {
    let defaults = try Self.load("")
    #expect(defaults.warmupDays == 0 && defaults.simulatedDays == defaults.days)
    #expect(defaults.fleet.installTime == nil)
    let loaded = try Self.load(
      """
      days: 5
      warmup_days: 2
      fleet:
        devices: 10
        install_time: {dist: uniform, low: 0s, high: 24h}
        vary:
          user.sleep.from: {dist: normal, mean: 0s, sd: 45m}
          user.sleep.to: {dist: constant, value: -30m}
      """)
    #expect(loaded.warmupDays == 2 && loaded.days == 5 && loaded.simulatedDays == 7)
    #expect(loaded.fleet.installTime?.mean == 43_200)
    #expect(loaded.fleet.variations.map(\.parameter) == [.sleepFromShiftSeconds, .sleepToShiftSeconds])
    let device = FleetRunner.device(3, of: loaded, replication: 0)
    #expect(device.configuration.user.sleep.to == TimeOfDay(hours: 6, minutes: 30))
    #expect(device.installTime > .zero && device.installTime < .days(1))
    // The shorthand overrides the key.
    #expect(try Self.load("warmup_days: 2\n", overrides: ["warmup_days=1"]).warmupDays == 1)
  }

  @Test("bad values name the key and what was expected")
  func badValues() {
    #expect(Self.message("warmup_days: -1\n").contains("warmup_days"))
    #expect(Self.message("warmup_days: 3645\n").contains("warmup_days + days"))
    #expect(Self.message("fleet: {install_time: 3}\n").contains("install_time"))
    #expect(Self.message("fleet: {vary: {user.sleep.from: {dist: normal, mean: 0, sd: 1}}}\n").contains("duration"))
  }
}
