import TestSupport
import Testing

/// What report.html's charts say, read from the page's text: titles in words, a per-minute axis of clock
/// times, a busiest-second card whose title and caption give the same figure, and the designs' Pareto chart.
@Suite("report.html's chart text")
struct ReportChartTextTests {
  @Test("a fleet run: the per-minute axis is clock times; the busiest second's title and caption agree")
  func fleetRun() throws {
    let directory = TestFiles.temporaryDirectory() + "/fleet"
    let run = try Subprocess.run([
      "run", Repository.path("Scenarios/fleet-capacity.yaml"), "--devices", "40", "--days", "1", "--replications",
      "2", "--out", directory, "--report", "--quiet",
    ])
    #expect(run.code == 0, "\(run.output)")
    let page = try TestFiles.read("\(directory)/report.html")
    #expect(page.contains("UTC time (day from 0, hour:minute)"))
    #expect(page.contains("'day ' + floor(datum.value)"), "ticks labelled as clock times")
    #expect(!page.contains("\"title\":\"day (UTC)\""))
    // The card's title gives the charted second's figure, and the caption the same figure.
    let title = try #require(
      page.firstRange(of: "Busiest second received: ").map { page[$0.upperBound...].prefix { $0 != " " } })
    #expect(page.contains("busiest second received, \(title) requests/s"), "title \(title)")
  }

  @Test("a sweep of designs: human chart titles and the Pareto chart of cost against staleness")
  func designSweep() throws {
    let directory = TestFiles.temporaryDirectory() + "/designs"
    let sweep = try Subprocess.run([
      "sweep", Repository.path("Scenarios/sweep-update-channel.yaml"), "--days", "1", "--replications", "2", "--out",
      directory, "--report", "--quiet",
    ])
    #expect(sweep.code == 0, "\(sweep.output)")
    let page = try TestFiles.read("\(directory)/report.html")
    #expect(page.contains("id=\"figure-sweep-pareto\""))
    #expect(page.contains("Cost against staleness: which designs are on the Pareto front"))
    #expect(page.contains("on the Pareto front"))
    #expect(page.contains("Share of days headlines ran out of reload budget"))
    #expect(page.contains("Mean staleness of headlines at views"))
    for raw in ["budget_exhausted_day_share of headlines", "joules_per_day of widget_push alone"] {
      #expect(!page.contains(raw), "raw title \(raw)")
    }
  }
}
