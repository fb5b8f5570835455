import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Pinned trajectory fingerprints (OMNeT++-style): any change to what the simulator does shows up here and
/// must be deliberate. After an intended behaviour change, rewrite the pins with
///
///     WIDGETSIM_UPDATE_FINGERPRINTS=1 swift test --filter Fingerprint
///
/// and commit `Tests/fingerprints.csv` with the change that explains it.
@Suite("Trajectory fingerprints")
struct FingerprintTests {
  /// (scenario file, overrides): single devices with widgets, pushes, Live Activities and batteries, and a
  /// small fleet.
  static let pinned: [(name: String, overrides: [String])] = [
    ("quickstart", []),
    ("aggressive-5min", ["replications=2"]),
    ("weather-push", ["replications=2"]),
    ("delivery-live-activity", ["replications=2"]),
    ("battery-low-power", ["replications=2"]),
    ("cellular-commuter", ["replications=2"]),
    ("fleet-capacity", ["fleet.devices=60", "days=3", "replications=2"]),
  ]

  static let file = Repository.path("Tests/fingerprints.csv")

  /// `scenario,overrides,replication,fingerprint` rows for every pinned run.
  static func current() throws -> String {
    var text = "scenario,overrides,replication,fingerprint\n"
    for (name, overrides) in pinned {
      let configuration = try exampleScenario(name, overrides: overrides)
      for replication in 0..<configuration.replications {
        let result = ScenarioRunner.runReplication(configuration, replication: replication)
        text += "\(name),\(overrides.joined(separator: " ")),\(replication),\(result.fingerprint.hexadecimal)\n"
      }
    }
    return text
  }

  @Test("the pinned scenarios still produce their pinned trajectories")
  func pinnedTrajectories() throws {
    let current = try FingerprintTests.current()
    if getenv("WIDGETSIM_UPDATE_FINGERPRINTS") != nil {
      try TestFiles.write(current, to: FingerprintTests.file)
      return
    }
    let pins = try TestFiles.read(FingerprintTests.file)
    let expected = pins.split(separator: "\n")
    let actual = current.split(separator: "\n")
    #expect(expected.count == actual.count, "pinned runs: \(expected.count), now \(actual.count)")
    for (pin, now) in zip(expected, actual) {
      #expect(
        pin == now,
        "trajectory changed: pinned \(pin), now \(now); if intended, run WIDGETSIM_UPDATE_FINGERPRINTS=1 swift test --filter Fingerprint"
      )
    }
  }

  @Test("a fleet's fingerprint does not depend on --jobs, and any change to the scenario changes it")
  func fleetFingerprintAcrossJobs() throws {
    let configuration = try exampleScenario("fleet-capacity", overrides: ["fleet.devices=40", "days=2"])
    let one = ScenarioRunner.runReplication(configuration, replication: 0, jobs: 1).fingerprint
    let two = ScenarioRunner.runReplication(configuration, replication: 0, jobs: 2).fingerprint
    #expect(one == two)
    var changed = configuration
    changed.seed += 1
    #expect(ScenarioRunner.runReplication(changed, replication: 0, jobs: 2).fingerprint != one)
    let nextReplication = ScenarioRunner.runReplication(configuration, replication: 1, jobs: 2).fingerprint
    #expect(nextReplication != one)
  }
}
