import CommandSupport
import HTMLReport
import Reports
import TestSupport
import Testing

/// What `report`, and `sweep --report`, check of their options, and how every command says where report.html
/// went, without the command line.
@Suite("report.html's options and line")
struct ReportOptionsTests {
  @Test("problem: --users above 0 and only with a report, --device and --day from 0, in the command line's words")
  func problems() {
    #expect(HTMLReport.problem(users: nil) == nil)
    #expect(HTMLReport.problem(users: 2_000_000, device: 0, day: 0) == nil)
    #expect(HTMLReport.problem(users: 0, device: -1) == "--users takes a number above 0, got 0.0")
    #expect(HTMLReport.problem(users: .infinity) == "--users takes a number above 0, got inf")
    #expect(HTMLReport.problem(users: nil, device: -1, day: -1) == "--device takes a device number from 0, got -1")
    #expect(HTMLReport.problem(users: nil, day: -2) == "--day takes a day from 0, got -2")
    // A sweep without --report writes no page for --users to set: refused, not ignored.
    #expect(
      HTMLReport.problem(users: 2_000_000, report: false)
        == "--users sets report.html's server chart: add --report, or leave --users out")
    #expect(HTMLReport.problem(users: nil, report: false) == nil)
  }

  @Test("every refusal starts 'error: ', the argument parser's too; --users without --report is refused")
  func errorSpelling() throws {
    let gate = try Subprocess.run(["compare", "a", "b", "--gate", "joules_per_day:5%"])
    #expect(gate.code == 2)
    #expect(
      gate.output.hasPrefix("error: --gate 'joules_per_day:5%': the tolerance must start with +"), "\(gate.output)")
    let users = try Subprocess.run([
      "sweep", Repository.path("Scenarios/sweep-refresh-interval.yaml"), "--users", "1000",
      "--out", TestFiles.temporaryDirectory(),
    ])
    #expect(users.code == 2)
    #expect(users.output.hasPrefix("error: --users sets report.html's server chart: add --report"), "\(users.output)")
    #expect(CommandFailure.lowercasedPrefix("Error: x\nUsage: y") == "error: x\nUsage: y")
    #expect(CommandFailure.lowercasedPrefix("error: x") == "error: x")
  }

  @Test("the page written and `report: PATH` said, unless quiet; a folder without reports is exit 2")
  func writeAndSay() throws {
    let directory = TestFiles.temporaryDirectory() + "/run"
    let run = try Subprocess.run(
      [
        "run", Repository.path("Scenarios/quickstart.yaml"), "--days", "1", "--replications", "2", "--quiet",
        "--out", directory,
      ])
    #expect(run.code == 0, "\(run.output)")
    let output = SynchronizedText()
    let console = Console(output: { output.append($0) }, error: { _ in Issue.record("nothing on standard error") })
    try HTMLReport.writeForCommand(directory: directory, console: console)
    #expect(output.text == "report: \(directory)/report.html\n")
    try HTMLReport.writeForCommand(directory: directory, console: console, quiet: true)
    #expect(output.text == "report: \(directory)/report.html\n")
    #expect(try TestFiles.read("\(directory)/report.html").contains("id=\"chart-specs\""))
    let empty = #expect(throws: CommandFailure.self) {
      try HTMLReport.writeForCommand(directory: TestFiles.temporaryDirectory(), console: console)
    }
    #expect(empty?.status == 2)
  }
}
