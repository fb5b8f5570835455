import ScenarioFiles
import TestSupport
import Testing

@testable import Reports
@testable import WidgetModel

@Suite("Numerical safety")
struct NumericalSafetyTests {
  /// Every cell of every report in `directory` is text, empty (nothing to measure), or a finite number:
  /// never `nan`, `inf` or an exponent overflow.
  static func expectFinite(_ directory: String, _ context: String) throws {
    for name in try TestFiles.list(directory) where name.hasSuffix(".csv") {
      let rows = CSVLines.parse(try TestFiles.read("\(directory)/\(name)"))
      for (line, row) in rows.enumerated() {
        for cell in row {
          let lowered = cell.lowercased()
          let bad = lowered.contains("nan") || lowered.contains("inf") || (Double(cell).map { !$0.isFinite } ?? false)
          #expect(!bad, "\(context): \(name) line \(line + 1) holds \(cell)")
        }
      }
    }
  }

  static func run(_ loaded: LoadedScenario) throws -> String {
    let directory = TestFiles.temporaryDirectory()
    let metadata = RunMetadata(
      widgetsimVersion: "test", scenarioFile: loaded.file, scenarioText: loaded.text, overrides: [],
      wallTimeSeconds: 0)
    try RunReports.write(
      configuration: loaded.configuration, results: ScenarioRunner.run(loaded.configuration), metadata: metadata,
      to: directory)
    return directory
  }

  @Test("absurd distribution tails are truncated by the documented rules: no crash, every number finite")
  func extremeDraws() throws {
    let loaded = try ScenarioLoader.load(path: Repository.path("Tests/ReportsTests/Fixtures/extreme-draws.yaml"))
    let directory = try Self.run(loaded)
    try Self.expectFinite(directory, "extreme-draws")
    let summary = CSVLines.parse(try TestFiles.read("\(directory)/summary.csv"))
    // CPU time per build is at most a day: two replications of 3 days can hold at most builds x 86,400 s.
    let cpu = try #require(summary.first { $0.first == "cpu_time_per_day" && $0[1] == "headlines" })
    let builds = try #require(summary.first { $0.first == "builds_per_day" && $0[1] == "headlines" })
    let cpuPerDay = try #require(Double(cpu[2]))
    let buildsPerDay = try #require(Double(builds[2]))
    #expect(cpuPerDay > 0 && cpuPerDay <= buildsPerDay * 86_400)
    // The weather widget's draws are mostly negative: they count as zero.
    let weatherCPU = try #require(summary.first { $0.first == "cpu_time_per_day" && $0[1] == "weather" })
    #expect(Double(weatherCPU[2]).map { $0 >= 0 && $0.isFinite } == true)
  }

  @Test("a burst whose heavy-tailed spacing reaches past any clock runs (no overflow) with finite reports")
  func burstSpacingPastTheClock() throws {
    let loaded = try ScenarioLoader.load(
      path: Repository.path("Tests/ReportsTests/Fixtures/burst-spacing-past-the-clock.yaml"),
      overrides: [try ScenarioOverride("replications=1")])
    try Self.expectFinite(try Self.run(loaded), "burst-spacing-past-the-clock")
  }

  @Test("every example scenario's reports hold only finite numbers", arguments: TestFiles.exampleScenarios())
  func examples(_ name: String) throws {
    var overrides = [try ScenarioOverride("days=2"), try ScenarioOverride("replications=2")]
    let path = Repository.path("Scenarios/\(name).yaml")
    var loaded = try ScenarioLoader.load(path: path, overrides: overrides)
    // A fleet's numbers are finite or not whatever its size: 50 devices still stand for the fleet (its
    // per-second figures estimated from them), at a fraction of the examples' thousands.
    if loaded.configuration.fleet.devices > 50 {
      overrides.append(try ScenarioOverride("fleet.devices=50"))
      loaded = try ScenarioLoader.load(path: path, overrides: overrides)
    }
    try Self.expectFinite(try Self.run(loaded), name)
  }

  @Test("truncation rules: negative draws are 0, tails stop at the caps, NaN is 0")
  func sampleLimits() {
    #expect(SampleLimits.duration(-3) == 0)
    #expect(SampleLimits.duration(1e300) == 86_400)
    #expect(SampleLimits.duration(.infinity) == 86_400)
    #expect(SampleLimits.duration(.nan) == 0)
    #expect(SampleLimits.size(1e30) == 1_099_511_627_776)
    #expect(Int64(clampedNearest: .infinity) == 1 << 62)
    #expect(Int64(clampedNearest: -.infinity) == -(1 << 62))
    #expect(Int64(clampedNearest: .nan) == 0)
    #expect(Int64(clampedNearest: 2.5) == 3)
  }
}
