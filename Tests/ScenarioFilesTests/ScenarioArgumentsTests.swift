import TestSupport
import Testing

@testable import ScenarioFiles

/// The scenario options every command takes, and `validate`'s line for each file, without the command line.
@Suite("Scenario options and validate")
struct ScenarioArgumentsTests {
  static let quickstart = Repository.path("Scenarios/quickstart.yaml")

  @Test("overrides: --set in order, then the shorthands; the manifest records both, or --set as given when unreadable")
  func overrides() throws {
    let arguments = ScenarioArguments(
      set: ["widgets[headlines].timeline.after=30m", "budget.per_day.max=50"], seed: 7, days: 3, devices: 20)
    #expect(
      arguments.recorded == [
        "widgets[headlines].timeline.after=30m", "budget.per_day.max=50", "seed=7", "days=3", "fleet.devices=20",
      ])
    let bad = ScenarioArguments(set: ["no-equals-sign"], days: 3)
    #expect(throws: ScenarioError.self) { try bad.overrides() }
    #expect(bad.recorded == ["no-equals-sign"])
  }

  @Test("limits: --allow-large and --allow-outside-base")
  func limits() {
    #expect(ScenarioArguments().limits == .standard)
    #expect(ScenarioArguments(allowLarge: true).limits == .large)
    #expect(ScenarioArguments(allowOutsideBase: true).limits == ScenarioLimits(allowOutsideBase: true))
  }

  @Test("load: a file or the default scenario, with the overrides; a sweep file loads as a sweep")
  func load() throws {
    let arguments = ScenarioArguments(replications: 2, days: 1)
    let loaded = try arguments.load(Self.quickstart)
    #expect(loaded.configuration.days == 1 && loaded.configuration.replications == 2)
    let embedded = try arguments.load(nil)
    #expect(embedded.file == ScenarioLoader.defaultScenarioName && embedded.configuration.days == 1)
    let sweep = try arguments.loadSweep(Repository.path("Scenarios/sweep-refresh-interval.yaml"))
    #expect(sweep.configurations.allSatisfy { $0.days == 1 && $0.replications == 2 })
    #expect(throws: ScenarioError.self) { try ScenarioArguments(days: 0).load(Self.quickstart) }
  }

  @Test("validate: a scenario's and a sweep's line, warnings before the line, every error said; false if any")
  func validate() {
    var said: [String] = []
    var warned: [String] = []
    let files = [
      Self.quickstart, Repository.path("Scenarios/sweep-refresh-interval.yaml"),
      Repository.path("Scenarios/news-silent-push.yaml"), Repository.path("Scenarios/no-such-file.yaml"),
    ]
    let valid = ScenarioValidation.check(
      files, arguments: ScenarioArguments(set: ["user.app_opens.per_day=0"]), say: { said.append($0) },
      warn: { warned.append($0) })
    #expect(!valid)
    #expect(
      said == [
        "\(files[0]): ok (2 widgets, 2 instances, 7 days, 5 replications; work: 1 device x 7 days x 2 widget "
          + "instances x 5 replications = 70 widget-days x 187 events each (measured on one device) = 1.3e4 events)",
        "\(files[1]): ok (sweep: 10 points, 100 tasks, 6.7e5 events, every point checked)",
        "\(files[2]): ok (1 widget, 1 instance, 7 days, 5 replications; work: 1 device x 7 days x 1 widget instance "
          + "x 5 replications = 35 widget-days x 276 events each (measured on one device) = 9660 events)",
      ])
    #expect(warned.count == 3)
    #expect(warned.first?.contains("on_change asks the app to reload") == true)
    #expect(warned.dropFirst().first?.contains("widgets[headlines]: warning: widget 'headlines'") == true)
    #expect(warned.last?.contains("no-such-file.yaml") == true)
  }

  @Test("validate: controls and Live Activities are counted beside the widgets")
  func surfaces() {
    var said: [String] = []
    let files = [
      Repository.path("Scenarios/smart-home-controls.yaml"), Repository.path("Scenarios/delivery-live-activity.yaml"),
    ]
    let valid = ScenarioValidation.check(
      files, arguments: ScenarioArguments(), say: { said.append($0) }, warn: { Issue.record("\($0)") })
    #expect(valid)
    #expect(said.first?.hasPrefix("\(files[0]): ok (1 widget, 2 controls, 4 instances, 7 days, ") == true)
    #expect(said.last?.hasPrefix("\(files[1]): ok (1 widget, 1 Live Activity, 1 instance, 7 days, ") == true)
  }
}
