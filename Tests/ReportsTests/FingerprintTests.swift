import Fleets
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
/// and commit `Tests/fingerprints.csv` with the change that explains it. A scenario added under Scenarios/
/// without a pin fails ``everyScenarioIsPinned``.
@Suite("Trajectory fingerprints")
struct FingerprintTests {
  /// One pinned run: a file under Scenarios/ (without `.yaml`) with overrides that keep it small; for a sweep
  /// file, one of its points.
  struct Pin: Sendable {
    let file: String
    let overrides: [String]
    let sweepPoint: Int?

    static func scenario(_ file: String, _ overrides: String...) -> Pin {
      Pin(file: file, overrides: overrides, sweepPoint: nil)
    }

    /// A sweep file's first point (the other points differ from it only in the swept keys).
    static func sweep(_ file: String, _ overrides: String...) -> Pin {
      Pin(file: file, overrides: overrides, sweepPoint: 0)
    }

    /// The `scenario` column: the file, and the point for a sweep.
    var label: String { sweepPoint.map { "\(file) point \($0)" } ?? file }

    func configuration() throws -> ScenarioConfiguration {
      guard let sweepPoint else { return try exampleScenario(file, overrides: overrides) }
      let sweep = try SweepLoader.load(
        path: Repository.path("Scenarios/\(file).yaml"), overrides: overrides.map { try ScenarioOverride($0) })
      return sweep.configurations[sweepPoint]
    }
  }

  /// Every scenario under Scenarios/ (``everyScenarioIsPinned`` checks that none is missing): single devices
  /// with widgets, pushes, Live Activities and batteries, small fleets, the benchmark and regression
  /// scenarios, and each sweep's first point. New pins go at the end, so the existing rows keep their place.
  static let pinned: [Pin] = [
    .scenario("quickstart"),
    .scenario("aggressive-5min", "replications=2"),
    .scenario("weather-push", "replications=2"),
    .scenario("delivery-live-activity", "replications=2"),
    .scenario("battery-low-power", "replications=2"),
    .scenario("cellular-commuter", "replications=2"),
    .scenario("fleet-capacity", "fleet.devices=60", "days=3", "replications=2"),
    .scenario("memory-heavy", "replications=2"),
    .scenario("news-15min", "replications=2"),
    .scenario("on-demand", "replications=2"),
    .scenario("sports-frequent-updates", "replications=2"),
    .scenario("weather-hourly", "replications=2"),
    .scenario("smart-home-controls", "replications=2"),
    .scenario("flight-tracker", "days=4", "replications=2"),
    .scenario("sports-broadcast", "fleet.devices=40", "days=2", "replications=2"),
    .sweep("sweep-refresh-interval", "replications=2"),
    .scenario("bench/fleet", "fleet.devices=40", "days=3"),
    .scenario("capacity/herd-clock", "fleet.devices=40"),
    .scenario("bench/light"),
    .scenario("bench/polling", "days=7"),
    .scenario("bench/push-heavy"),
    .sweep("bench/sweep", "replications=2"),
    .scenario("bench/typical"),
    .scenario("regression/baseline", "replications=2"),
    .scenario("regression/candidate", "replications=2"),
    .scenario("stock-market-hours", "replications=2"),
    .scenario("news-silent-push", "replications=2"),
    .sweep("sweep-update-channel", "replications=2", "days=7"),
    .scenario("fleet-breaking-news", "fleet.devices=40", "days=2", "replications=2"),
    .scenario("fleet-food-delivery", "fleet.devices=40", "days=2", "replications=2"),
    .scenario("bench/field", "fleet.devices=20", "days=3"),
    .scenario("field/app", "days=3"),
    .scenario("field/calibrate", "days=3"),
  ]

  static let file = Repository.path("Tests/fingerprints.csv")
  static let update = "WIDGETSIM_UPDATE_FINGERPRINTS=1 swift test --filter Fingerprint"

  /// `scenario,overrides,replication,fingerprint` rows for every pinned run.
  static func current() throws -> String {
    var text = "scenario,overrides,replication,fingerprint\n"
    for pin in pinned {
      let configuration = try pin.configuration()
      for replication in 0..<configuration.replications {
        let result = ScenarioRunner.runReplication(configuration, replication: replication)
        text +=
          "\(pin.label),\(pin.overrides.joined(separator: " ")),\(replication),\(result.fingerprint.hexadecimal)\n"
      }
    }
    return text
  }

  /// The files under `Scenarios/\(folder)` and its subfolders that end in `.yaml`, without it.
  static func scenarioFiles(under folder: String = "") throws -> [String] {
    var files: [String] = []
    for name in try TestFiles.list(Repository.path("Scenarios/\(folder)")) {
      let relative = folder + name
      if name.hasSuffix(".yaml") {
        files.append(String(relative.dropLast(5)))
      } else if let directory = opendir(Repository.path("Scenarios/\(relative)")) {
        closedir(directory)
        files += try scenarioFiles(under: relative + "/")
      }
    }
    return files
  }

  @Test("every scenario under Scenarios/ has a pin")
  func everyScenarioIsPinned() throws {
    let files = try FingerprintTests.scenarioFiles()
    let pinned = Set(FingerprintTests.pinned.map(\.file))
    let missing = files.filter { !pinned.contains($0) }
    #expect(
      missing.isEmpty,
      """
      scenarios without a trajectory pin: \(missing.map { "Scenarios/\($0).yaml" }.joined(separator: ", ")); \
      add them to FingerprintTests.pinned (with overrides that keep them small) and run \(FingerprintTests.update)
      """)
    let gone = pinned.subtracting(files).sorted()
    #expect(gone.isEmpty, "pinned scenarios that are no longer under Scenarios/: \(gone.joined(separator: ", "))")
  }

  @Test("the pinned scenarios still produce their pinned trajectories")
  func pinnedTrajectories() throws {
    let current = try FingerprintTests.current()
    if getenv("WIDGETSIM_UPDATE_FINGERPRINTS") != nil {
      try TestFiles.write(current, to: FingerprintTests.file)
      return
    }
    /// `scenario,overrides,replication` -> fingerprint.
    func fingerprints(_ csv: String) -> [(run: Substring, fingerprint: Substring)] {
      csv.split(separator: "\n").dropFirst().map { row in
        let comma = row.lastIndex(of: ",") ?? row.endIndex
        return (row[..<comma], row[comma...].dropFirst())
      }
    }
    let pins = fingerprints(try TestFiles.read(FingerprintTests.file))
    let pinnedRuns = Dictionary(pins, uniquingKeysWith: { first, _ in first })
    let actual = fingerprints(current)
    for (run, fingerprint) in actual {
      guard let pin = pinnedRuns[run] else {
        Issue.record("no pin for \(run) (now \(fingerprint)); run \(FingerprintTests.update)")
        continue
      }
      #expect(
        pin == fingerprint,
        "trajectory changed: \(run) pinned \(pin), now \(fingerprint); if intended, run \(FingerprintTests.update)")
    }
    let runs = Set(actual.map(\.run))
    for (run, _) in pins where !runs.contains(run) {
      Issue.record("\(run) is pinned in Tests/fingerprints.csv but no longer runs; run \(FingerprintTests.update)")
    }
  }

  @Test("a fleet's fingerprint does not depend on --jobs, and any change to the scenario changes it")
  func fleetFingerprintAcrossJobs() throws {
    let configuration = try exampleScenario("fleet-capacity", overrides: ["fleet.devices=40", "days=2"])
    let one = ScenarioRunner.runReplication(configuration, replication: 0).fingerprint
    let two = FleetRunner.run(configuration, replication: 0, jobs: 2).result.fingerprint
    #expect(one == two)
    var changed = configuration
    changed.seed += 1
    #expect(FleetRunner.run(changed, replication: 0, jobs: 2).result.fingerprint != one)
    let nextReplication = FleetRunner.run(configuration, replication: 1, jobs: 2).result.fingerprint
    #expect(nextReplication != one)
  }
}
