import Reports
import TestSupport
import Testing

@Suite("report.html's summary tables: warnings, clock times, interval methods")
struct ReportSummaryTablesTests {
  @Test("2 replications: the page warns that the intervals say little; hours of day read as clock times")
  func fewReplications() throws {
    let (directory, run) = try Self.quickstart(replications: 2, days: 2)
    #expect(run.output.contains("warning: 2 replications: each interval is 12.7 standard errors"))
    let page = try TestFiles.read("\(directory)/report.html")
    #expect(page.contains("<p class=\"warning\">warning: 2 replications: each interval is 12.7 standard errors"))
    // last_budget_grant_hour of headlines: a clock time, and its interval too.
    let row = try #require(page.split(separator: "\n").first { $0.contains("<td>last_budget_grant_hour</td>") })
    let cells = row.split(separator: "<td class=\"number\">").dropFirst().map { $0.prefix(5) }
    #expect(cells.count == 2)
    #expect(cells.first.map { Self.isClock($0) } == true, "\(row)")
    #expect(row.contains("logit</span>"), "an hour of day's interval is a logit interval")
    // An extreme gets no interval.
    let maximum = try #require(page.split(separator: "\n").first { $0.contains("<td>staleness_max</td>") })
    #expect(maximum.contains("<td class=\"number\">–</td>"))
  }

  @Test("enough replications: no warning")
  func enoughReplications() throws {
    let (directory, run) = try Self.quickstart(replications: 5, days: 1)
    #expect(!run.output.contains("warning: "))
    #expect(!(try TestFiles.read("\(directory)/report.html")).contains("class=\"warning\""))
  }

  /// The quickstart run with `--report` into a new folder: the folder and what the run printed.
  static func quickstart(replications: Int, days: Int) throws -> (String, (code: Int32, output: String)) {
    let directory = TestFiles.temporaryDirectory() + "/quickstart"
    let run = try Subprocess.run([
      "run", Repository.path("Scenarios/quickstart.yaml"), "--replications", "\(replications)", "--days", "\(days)",
      "--out", directory, "--report",
    ])
    #expect(run.code == 0, "\(run.output)")
    return (directory, run)
  }

  static func isClock(_ text: Substring) -> Bool {
    let characters = Array(text)
    guard characters.count == 5, characters[2] == ":" else { return false }
    return [0, 1, 3, 4].allSatisfy { characters[$0].isNumber }
  }
}
