import Results
import ScenarioFiles
import SimulationEngine
import TestSupport
import Testing
import WidgetModel

@testable import Reports

/// The app's reports: app_wakes.csv, server_load.csv by source, the `app` energy subject and its summary rows
/// hold exactly what the results counted.
@Suite("App reports")
struct AppReportsTests {
  /// Rows of a CSV file as dictionaries by column name.
  static func rows(_ text: String) -> [[String: String]] {
    let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    guard let header = lines.first?.map(String.init) else { return [] }
    return lines.dropFirst().map { cells in
      Dictionary(uniqueKeysWithValues: zip(header, cells.map(String.init)))
    }
  }

  @Test(
    "app_wakes.csv, server_load.csv, energy.csv and summary.csv agree with the counts of the run: every replication's rows (--detail), or their mean",
    arguments: [true, false])
  func reportsMatchResults(detail: Bool) throws {
    let loaded = try ScenarioLoader.load(path: Repository.path("Scenarios/news-silent-push.yaml"))
    var configuration = loaded.configuration
    configuration.replications = 2
    configuration.app.backgroundRefresh.enabled = true
    let results = ScenarioRunner.run(configuration)
    let directory = TestFiles.temporaryDirectory()
    let metadata = RunMetadata(
      widgetsimVersion: "test", scenarioFile: loaded.file, scenarioText: loaded.text, overrides: [],
      wallTimeSeconds: 0)
    try RunReports.write(
      configuration: configuration, results: results, metadata: metadata, to: directory, detail: detail)
    // The default reports hold the mean over replications: their sums times the replications are the run's.
    let replications = detail ? 1.0 : Double(results.count)
    // Means are written with 3 decimals (counts) or 4 (per-minute load): at most half a unit of the last
    // decimal lost per row.
    func close(_ written: Double, _ expected: Double, rows: Int, decimals: Int = 3) -> Bool {
      let rounding = (decimals == 3 ? 5e-4 : 5e-5) * 1.000_001
      return abs(written * replications - expected) <= (detail ? 0 : rounding * replications * Double(rows))
    }

    let wakes = Self.rows(try TestFiles.read("\(directory)/app_wakes.csv"))
    #expect(!wakes.isEmpty)
    for channel in AppWakeChannel.allCases {
      for outcome in AppWakeOutcome.allCases {
        let expected = results.reduce(0) { $0 + $1.appWakeTotal(channel: channel, outcome: outcome) }
        let written = wakes.filter {
          $0["channel"] == channel.name && $0["outcome"] == outcome.outcome && $0["reason"] == outcome.reason
        }
        let sum = written.reduce(0.0) { $0 + Double($1["count"] ?? "0")! }
        #expect(close(sum, Double(expected), rows: written.count), "\(channel.name) \(outcome)")
      }
    }
    #expect(results.reduce(0) { $0 + $1.appWakeTotal(channel: .silentPush, outcome: .granted) } > 100)
    #expect(results.reduce(0) { $0 + $1.appWakeTotal(channel: .backgroundRefresh) } > 10)

    let load = Self.rows(try TestFiles.read("\(directory)/server_load.csv"))
    for source in ServerSource.allCases {
      let written = load.reduce(0.0) { $0 + Double($1[source.name] ?? "0")! }
      var expected: Int64 = 0
      for result in results {
        for slot in 0..<result.serverLoad.minuteCount {
          expected += result.serverLoad.requests(slot: slot, source: source)
        }
      }
      #expect(close(written, Double(expected), rows: load.count, decimals: 4), "\(source.name)")
    }
    let fetchTotal = load.reduce(0.0) { $0 + Double($1["fetch_requests"]!)! }
    let fetchSources = ServerSource.allCases.filter(\.isFetch).map(\.name)
    let bySource = load.reduce(0.0) { row, cells in row + fetchSources.reduce(0.0) { $0 + Double(cells[$1]!)! } }
    #expect(close(fetchTotal, bySource * replications, rows: load.count * (1 + fetchSources.count), decimals: 4))

    let energy = Self.rows(try TestFiles.read("\(directory)/energy.csv")).filter { $0["widget"] == "app" }
    #expect(Set(energy.map { $0["component"]! }) == ["app_cpu", "app_network", "push_wake"])
    let appJoules = energy.reduce(0.0) { $0 + Double($1["joules"]!)! }
    let expectedJoules = results.reduce(0.0) { $0 + $1.totalJoules(subject: $1.appSubject) }
    #expect(abs(appJoules * replications - expectedJoules) < 1e-3 * Double(energy.count) * replications)

    let summary = Self.rows(try TestFiles.read("\(directory)/summary.csv"))
    let fetches = try #require(summary.first { $0["metric"] == "app_fetches_per_day" && $0["widget"] == "app" })
    let perDay = results.map { result in
      Double(AppWakeChannel.allCases.reduce(0) { $0 + result.appFetchCount(channel: $1) }) / Double(result.days)
    }
    let mean: Double = perDay.reduce(0, +) / Double(perDay.count)
    let reported: Double = try #require(fetches["mean"].flatMap { Double($0) })
    #expect(abs(reported - mean) < 1e-3)
  }
}
