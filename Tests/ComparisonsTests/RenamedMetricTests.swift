import Results
import Testing
import WidgetModel

@testable import Comparisons
@testable import Reports

@Suite("Renamed metrics are")
struct RenamedMetricTests {
  @Test("written by their new names only: the per-minute averages are no longer called peaks")
  func summaryNames() {
    let names = Set(RunSummary.serverMetrics(scale: 1).map(\.name))
    #expect(names.isSuperset(of: ["fetch_qps_busiest_minute", "fetch_qps_p99_minute", "push_qps_busiest_minute"]))
    #expect(names.isDisjoint(with: RenamedMetric.previousNames.keys))
  }

  @Test("found by their old names in a gate, a sweep objective and a baseline's replications.csv")
  func oldNamesAccepted() throws {
    #expect(try Gate(parsing: "fetch_qps_peak:+10%").metric == "fetch_qps_busiest_minute")
    #expect(try Gate(parsing: "push_qps_peak@server:+5").metric == "push_qps_busiest_minute")
    #expect(try Gate(parsing: "staleness_mean:+5%").metric == "staleness_mean")
    #expect(SweepObjective(metric: "fetch_qps_p99", widget: nil, minimize: true).metric == "fetch_qps_p99_minute")
    let text = "seed,replication,metric,widget,value,unit\n1,0,fetch_qps_peak,server,2.5,requests/s\n"
    let table = try ReplicationTable.parse(text, path: "baseline.csv")
    #expect(table.keys.map(\.metric) == ["fetch_qps_busiest_minute"])
  }
}
