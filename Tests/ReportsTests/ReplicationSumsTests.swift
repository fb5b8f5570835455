import Dispatch
import Fleets
import ScenarioFiles
import SimulationEngine
import TestSupport
import Testing

@testable import Reports
@testable import Results
@testable import WidgetModel

@Suite("Replications summed on their own threads")
struct ReplicationSumsTests {
  /// Every report of `configuration`'s replications, written from `add(result)` in order, or from partial
  /// sums made on several threads in a scrambled order, a batch at a time. `summedOnly`: the replications
  /// keep their server requests as requests (``ServerLoad/keepsRequests``), as a run without `--detail` has them.
  static func reports(_ loaded: LoadedScenario, threads: Bool, summedOnly: Bool = false) throws -> [String: String] {
    let configuration = loaded.configuration
    let directory = TestFiles.temporaryDirectory()
    let writer = try RunReportWriter(configuration: configuration, directory: directory)
    let results = try (0..<configuration.replications).map { replication in
      guard summedOnly else { return ScenarioRunner.runReplication(configuration, replication: replication) }
      return try #require(
        FleetRunner.run(configuration, replication: replication, jobs: 1, stop: nil, summedOnly: true)?.result)
    }
    if threads {
      let summary = writer.summaryAccumulator
      // Scrambled within each batch; which thread's partial sum takes which replication varies from run to run.
      for (batch, order) in [(0..<5, [3, 0, 4, 1, 2]), (5..<12, [11, 6, 10, 5, 9, 7, 8])] {
        let sums = try #require(writer.makeSums())
        DispatchQueue.concurrentPerform(iterations: order.count) { _ = sums.add(results[order[$0]]) }
        _ = writer.add(sums)
        for replication in batch {
          let result = results[replication]
          try writer.add(
            summed: replication, eventsHandled: result.eventsHandled, fingerprint: result.fingerprint, devices: [],
            values: summary.numbers(of: result))
        }
      }
    } else {
      for result in results { try writer.add(result) }
    }
    try writer.finish(
      metadata: RunMetadata(
        widgetsimVersion: "test", scenarioFile: loaded.file, scenarioText: loaded.text, overrides: [],
        wallTimeSeconds: 0))
    var files: [String: String] = [:]
    for name in try TestFiles.list(directory) { files[name] = try TestFiles.read("\(directory)/\(name)") }
    return files
  }

  @Test(
    "partial sums of replications added in any order on any thread give the reports of adding them in order",
    arguments: ["quickstart", "fleet-capacity"])
  func partialSumsEqualOrderedSums(_ name: String) throws {
    // A fleet of 3 phones over 12 replications: per-second peaks of a few requests, so some replications
    // tie for the busiest second and the earliest one's rows must win.
    var overrides = [try ScenarioOverride("days=2"), try ScenarioOverride("replications=12")]
    if name == "fleet-capacity" { overrides.append(try ScenarioOverride("fleet.devices=3")) }
    let loaded = try ScenarioLoader.load(path: Repository.path("Scenarios/\(name).yaml"), overrides: overrides)
    let ordered = try Self.reports(loaded, threads: false)
    for _ in 0..<4 {
      let summed = try Self.reports(loaded, threads: true)
      #expect(ordered.keys.sorted() == summed.keys.sorted())
      for (file, text) in ordered where file != "manifest.json" {
        #expect(text == summed[file], "\(file) differs when summed on threads")
      }
    }
  }

  @Test(
    "replications that keep their server requests give the reports of ones that do not, in order and on threads",
    arguments: [1, 12])
  func keptRequestsGiveTheSameReports(replications: Int) throws {
    // One replication: the run's sum is that replication, which adds its kept requests to its minutes.
    let overrides = [try ScenarioOverride("days=2"), try ScenarioOverride("replications=\(replications)")]
    let loaded = try ScenarioLoader.load(path: Repository.path("Scenarios/quickstart.yaml"), overrides: overrides)
    let kept = try #require(
      FleetRunner.run(loaded.configuration, replication: 0, jobs: 1, stop: nil, summedOnly: true)?.result)
    #expect(kept.serverLoad.holdsKeptRequests, "the phone's replication kept its requests")
    let reference = try Self.reports(loaded, threads: false)
    for threads in [false, true] where replications > 1 || !threads {
      let summed = try Self.reports(loaded, threads: threads, summedOnly: true)
      #expect(reference.keys.sorted() == summed.keys.sorted())
      for (file, text) in reference where file != "manifest.json" {
        #expect(text == summed[file], "\(file) differs when the replications keep their requests")
      }
    }
  }

  @Test("of equally busy seconds the earliest replication's rows are kept, whatever the order of adding and merging")
  func peakTiesGoToTheEarliestReplication() {
    // Busiest seconds of 2, 3, 3 and 1 requests: replication 1's rows are the run's.
    let results = [2, 3, 3, 1].enumerated().map { replication, requests in
      var result = ReplicationResult(replication: replication, days: 1, instanceCount: 1, perSecond: true)
      for _ in 0..<requests {
        result.serverLoad.recordFetch(.widgetFetch, bytes: 10, at: SimTime(microseconds: 60_000_000), offset: .zero)
      }
      result.serverLoad.applyPending()
      result.summariseSeconds(
        ScenarioConfiguration(name: "peak", days: 1, widgets: [], fleet: FleetConfiguration(devices: 2, represents: 2)))
      return result
    }
    func total(_ replications: [Int]) -> RunTotal {
      var total = RunTotal()
      for replication in replications { total.add(results[replication]) { "rows of \($0.replication)" } }
      return total
    }
    for (first, second) in [([2, 0], [3, 1]), ([3, 1], [2, 0]), ([0, 1], [3, 2]), ([2, 3], [1, 0])] {
      var merged = total(first)
      #expect(merged.merge(total(second)) != nil, "the other sum is added into this one and handed back")
      #expect(merged.peakRows == "rows of 1" && merged.peakReplication == 1, "\(first) then \(second)")
      #expect(merged.peakRequests == 3 && merged.replications == 4)
    }
    var empty = RunTotal()
    #expect(empty.merge(total([0])) == nil, "an empty total takes the other's sum as its own")
    #expect(empty.peakRows == "rows of 0" && empty.result?.devices == 0)
  }
}
