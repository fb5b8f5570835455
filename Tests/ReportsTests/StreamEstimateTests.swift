import Fleets
import Reports
import Results
import TestSupport
import Testing
import WidgetModel

/// One stream's busiest second and p99 from a sample of the fleet: not estimated (docs/capacity.md), and
/// marked so, where the sides' figures keep their estimates and intervals.
@Suite("A stream's per-second peaks from a sample")
struct StreamEstimateTests {
  static func summary(devices: Int) throws -> [String: [String]] {
    let configuration = try exampleScenario(
      "fleet-capacity",
      overrides: ["fleet.devices=\(devices)", "fleet.represents=400", "days=1", "warmup_days=0", "replications=1"])
    let result = FleetRunner.run(configuration, replication: 0, jobs: 2).result
    let csv = RunSummary(results: [result], subjects: RunSummary.Subjects(configuration)).csv()
    var rows: [String: [String]] = [:]
    for line in csv.split(separator: "\n") {
      let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      rows["\(cells[0]),\(cells[1])"] = cells
    }
    return rows
  }

  @Test("are blank with ci_method not_estimable in a sample; the sides' and every phone's are figures")
  func notEstimable() throws {
    let sampled = try Self.summary(devices: 40)
    for figure in ["peak_requests_per_second", "p99_requests_per_second"] {
      let stream = try #require(sampled["\(figure),widget_fetch"])
      #expect(stream[2] == "" && stream[3] == "" && stream[10] == "not_estimable", "\(stream)")
      let side = try #require(sampled["\(figure),received"])
      #expect(Double(side[2]) != nil && side[10] == "fleet_sample", "\(side)")
    }
    #expect(sampled["peak_bytes_per_second,widget_fetch"]?[10] == "not_estimable")
    // The stream's mean is counted, and its raw_ rows stay.
    #expect(Double(sampled["mean_requests_per_second,widget_fetch"]?[2] ?? "") != nil)
    #expect(Double(sampled["raw_peak_requests_per_second,widget_fetch"]?[2] ?? "") != nil)
    // Every phone simulated: counted, a figure.
    let whole = try Self.summary(devices: 400)
    let counted = try #require(whole["peak_requests_per_second,widget_fetch"])
    #expect(Double(counted[2]) != nil && counted[10] == "none", "\(counted)")
  }
}
