import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

@testable import Reports

@Suite("staleness_histogram.csv and JSON text")
struct StalenessHistogramTests {
  @Test(
    "the bins add up to the views of staleness.csv; fresh = views - stale - placeholder",
    arguments: ["quickstart", "aggressive-5min", "delivery-live-activity", "memory-heavy"])
  func binsAddUp(_ name: String) throws {
    let loaded = try ScenarioLoader.load(
      path: Repository.path("Scenarios/\(name).yaml"),
      overrides: [try ScenarioOverride("days=3"), try ScenarioOverride("replications=2")])
    let configuration = loaded.configuration
    let subjects = RunSummary.Subjects(configuration)
    for result in ScenarioRunner.run(configuration) {
      let summary = CSVLines.parse(
        StalenessReport.header(detail: true)
          + StalenessReport.rows(result, .replication(result.replication, subjects: subjects)))
      let histogram = CSVLines.parse(
        StalenessHistogramReport.header(detail: true)
          + StalenessHistogramReport.rows(result, .replication(result.replication, subjects: subjects)))
      #expect(histogram.count - 1 == (summary.count - 1) * StalenessHistogramReport.bins.count)
      for row in summary.dropFirst() {
        let bins = histogram.filter { $0[1] == row[1] }
        let views = try #require(Int(row[3]))
        let placeholder = try #require(Int(row[4]))
        let stale = try #require(Int(row[5]))
        #expect(bins.map { $0[2] } == StalenessHistogramReport.bins)
        #expect(bins.reduce(0) { $0 + (Int($1[5]) ?? -1) } == views, "\(name) \(row[1])")
        #expect(Int(bins[0][5]) == placeholder)
        #expect(Int(bins[1][5]) == views - stale - placeholder, "\(name) \(row[1]): fresh views")
      }
    }
  }

  @Test("JSON strings are escaped; inside HTML, < > & too; non-finite numbers are null")
  func json() {
    let value = JSONValue.object([
      ("a\"b", .string("</script>&\n")), ("n", .number(.nan)), ("x", .number(0.5)),
      ("list", .array([.integer(1), .bool(true), .null])),
    ])
    #expect(value.text == #"{"a\"b":"</script>&\n","n":null,"x":0.5,"list":[1,true,null]}"#)
    #expect(value.htmlSafeText == #"{"a\"b":"\u003c/script\u003e\u0026\n","n":null,"x":0.5,"list":[1,true,null]}"#)
  }
}
