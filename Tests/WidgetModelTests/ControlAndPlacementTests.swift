import SimulationEngine
import Testing

@testable import WidgetModel

/// Binomial and Poisson checks shared by the surface tests: a share within the 99.9% normal interval of
/// its known value for the sample size, a count within the 99.9% interval of its Poisson mean.
enum KnownAnswer {
  static let z = 3.29

  static func share(_ hits: Int, of trials: Int, is p: Double) -> Bool {
    guard trials > 0 else { return false }
    return abs(Double(hits) / Double(trials) - p) <= z * (p * (1 - p) / Double(trials)).squareRoot()
  }

  static func count(_ observed: Int, poissonMean mean: Double) -> Bool {
    abs(Double(observed) - mean) <= z * mean.squareRoot()
  }
}

@Suite("Controls, placements and the Smart Stack")
struct ControlAndPlacementTests {
  static func control(
    _ id: String, kind: String = "DoorLock", placement: WidgetPlacement = .controlCenter, tapsPerDay: Double = 0,
    data: DataConfiguration = .init()
  ) -> WidgetConfiguration {
    WidgetConfiguration(
      id: id, kind: kind, surface: .control, family: .systemSmall, placement: placement,
      timeline: TimelineConfiguration(policy: .never),
      build: BuildConfiguration(cpuSeconds: try! .constant(0.02), fetchProbability: 0), data: data,
      tapsPerDay: tapsPerDay)
  }

  @Test("a control reloads once per tap (its App Intent), exempt; Control Center views measure it")
  func controlTaps() {
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("w", policy: .never), ControlAndPlacementTests.control("door", tapsPerDay: 6)], days: 20)
    configuration.user.controlCenterViews = HourlyRate(perHour: 2)
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let taps = result.total(instance: 1, cause: .appIntent)
    // Taps: Poisson, 6 a day over 20 days; each reloads at once without budget.
    #expect(KnownAnswer.count(taps, poissonMean: 6 * 20))
    #expect(result.total(instance: 1, cause: .appIntent, outcome: .grantedExempt) == taps)
    // Views: 2 per awake hour (16.5 h a day) for 20 days.
    let views = result.staleness[1].views
    #expect(KnownAnswer.count(views, poissonMean: 2 * 16.5 * 20))
    #expect(result.staleness[0].views > 0 && result.builds[1] == taps + 1, "one reload when added, one per tap")
  }

  @Test("controls are unbudgeted unless system.controls.budget gives them one; then it binds")
  func controlBudget() {
    let data = DataConfiguration(changes: HourlyRate(perHour: 4), onChange: .none, pushes: [.widget])
    var configuration = ModelFixtures.quiet([ControlAndPlacementTests.control("door", data: data)], days: 5)
    configuration.system.widgetPush = WidgetPushConfiguration(perHour: 100, perDay: 10_000, delay: try! .constant(1))
    configuration.system.widgetPush.waitWhileAsleep = false
    let free = ScenarioRunner.runReplication(configuration, replication: 0)
    let pushes = free.total(instance: 0, cause: .push)
    #expect(pushes == free.pushTotal(target: 0, counter: .delivered), "a control push reloads its control")
    #expect(free.total(instance: 0, cause: .push, outcome: .grantedExempt) == pushes)
    configuration.system.controlBudgetPerDay = 10
    let budgeted = ScenarioRunner.runReplication(configuration, replication: 0)
    let spent = budgeted.total(instance: 0, cause: .push, outcome: .grantedBudget)
    // 10 a day, each spend refilled over 24 h: at most 10 in the first day and 10 a day after.
    #expect(spent > 0 && spent <= 10 * 5 + 10)
    #expect(budgeted.total(instance: 0, cause: .push, outcome: .grantedExempt) == 0)
    #expect(budgeted.total(instance: 0, cause: .push, outcome: .coalesced) > 0, "4 pushes an hour against 10 a day")
  }

  @Test("a widget in several places is one instance per place, each with its own budget and views")
  func placements() {
    var widget = ModelFixtures.widget("weather", policy: .after(.minutes(30)))
    widget.family = .systemSmall
    widget.placements = [.home, .standby]
    let configuration = ModelFixtures.quiet([widget], days: 3)
    #expect(configuration.instances.map(\.label) == ["weather@home", "weather@standby"])
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.total(instance: 1, cause: .standby) > 0 && result.total(instance: 0, cause: .standby) == 0)
    #expect(result.staleness[0].views > result.staleness[1].views, "Home Screen views by day, StandBy by night")
  }

  @Test("CarPlay widgets are refreshed (exempt) and seen only while the user drives")
  func carplay() {
    var widget = ModelFixtures.widget("eta", policy: .never)
    widget.family = .systemSmall
    widget.placements = [.carplay]
    var configuration = ModelFixtures.quiet([widget], days: 30)
    configuration.user.carplayDrives = HourlyRate(perHour: 2.0 / 16.5)  // two drives a day
    configuration.user.carplayDrive = try! .constant(1_800)
    configuration.user.carplayViewsPerHour = 10
    configuration.system.standbyRefreshInterval = .minutes(10)
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    // Two 30-minute drives a day (a drive starting while one runs is not a new one): about 5 glances each.
    let drives = result.total(instance: 0, cause: .carplay)
    #expect(drives > 0)
    #expect(KnownAnswer.count(result.staleness[0].views, poissonMean: Double(drives) / 3 * 5))
  }

  @Test("the Smart Stack shows each widget in proportion to its relevance; the fixed rule keeps 1 in 3")
  func smartStackRelevance() {
    var high = ModelFixtures.widget("high", policy: .never, placement: .smartStack)
    high.relevance = HourlyRate(perHour: 3)
    let low = ModelFixtures.widget("low", policy: .never, placement: .smartStack)
    var configuration = ModelFixtures.quiet([high, low], days: 20)
    configuration.user.smartStack.size = 4  // two other apps' widgets, relevance 1 each: total 3 + 1 + 2
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    // Home Screen views: 6 an awake hour (16.5 h) for 20 days, each showing one of the stack's widgets:
    // ours 3/6 and 1/6 of the time (a thinned Poisson process each).
    let homeViews = 6 * 16.5 * 20
    #expect(KnownAnswer.count(result.staleness[0].views, poissonMean: homeViews * 3 / 6))
    #expect(KnownAnswer.count(result.staleness[1].views, poissonMean: homeViews * 1 / 6))
    configuration.user.smartStack.rule = .fixed
    let fixed = ScenarioRunner.runReplication(configuration, replication: 0)
    let expectedViews = 6 * 16.5 * 20 / 3
    #expect(KnownAnswer.count(fixed.staleness[0].views, poissonMean: expectedViews))
  }

  @Test("app.on_open reloads every widget, only the named kinds, or nothing")
  func onOpen() {
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("a", kind: "A", policy: .never), ModelFixtures.widget("b", kind: "B", policy: .never)])
    configuration.user.appOpensPerDay = 5
    let all = ScenarioRunner.runReplication(configuration, replication: 0)
    let opens = all.total(instance: 0, cause: .appForeground)
    #expect(opens > 0 && all.total(instance: 1, cause: .appForeground) == opens)
    configuration.app.onOpen = .reloadKinds(["A"])
    let kinds = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(kinds.total(instance: 0, cause: .appForeground) == opens)
    #expect(kinds.total(instance: 1, cause: .appForeground) == 0)
    configuration.app.onOpen = .none
    let none = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(none.total(instance: 0, cause: .appForeground) + none.total(instance: 1, cause: .appForeground) == 0)
  }
}
