import TestSupport
import Testing

/// The scenario's warnings reach the user from `run` as from `validate`.
@Suite("Scenario warnings on the command line")
struct ScenarioWarningTests {
  static let scenario = Repository.path("Scenarios/news-silent-push.yaml")

  @Test("run and validate warn when a widget's data comes only from wakes of an app the user never opens")
  func dormantWakesWarning() throws {
    let root = TestFiles.temporaryDirectory()
    let neverOpened = [Self.scenario, "--set", "user.app_opens.per_day=0"]
    let run = try Subprocess.run(
      ["run"] + neverOpened + ["--days", "1", "--replications", "1", "--quiet", "--out", "\(root)/never"])
    #expect(run.code == 0, "\(run.output)")
    let validate = try Subprocess.run(["validate"] + neverOpened)
    #expect(validate.code == 0, "\(validate.output)")
    for output in [run.output, validate.output] {
      let lines = output.split(separator: "\n").filter { $0.contains("warning:") }
      #expect(lines.count == 1, "\(output)")
      let line = String(lines.first ?? "")
      #expect(line.contains("widgets[headlines]") && line.contains("widget 'headlines'"), "\(line)")
      #expect(line.contains("user.app_opens.per_day") && line.contains("app.dormant_after"), "\(line)")
    }
    let opened = try Subprocess.run(
      ["run", Self.scenario, "--days", "1", "--replications", "1", "--quiet", "--out", "\(root)/opened"])
    #expect(opened.code == 0 && !opened.output.contains("warning:"), "\(opened.output)")
  }
}
