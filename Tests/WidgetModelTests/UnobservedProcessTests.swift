import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// A process whose events nothing on the phone would see is not simulated: its rate changes no figure and
/// costs no event.
@Suite("Unobserved processes")
struct UnobservedProcessTests {
  static func scenario(placement: WidgetPlacement, lockScreenViewsPerHour: Double) -> ScenarioConfiguration {
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("w", policy: .after(.minutes(20)), changesPerHour: 2, placement: placement)], days: 5)
    configuration.user.appOpensPerDay = 3
    configuration.user.lockScreenViews = HourlyRate(perHour: lockScreenViewsPerHour)
    return configuration
  }

  @Test("Lock Screen views on a phone without Lock Screen widgets or Live Activities cost no event")
  func lockScreenViewsWithoutLockScreenWidgets() {
    let none = ScenarioRunner.runReplication(Self.scenario(placement: .home, lockScreenViewsPerHour: 0), replication: 0)
    let many = ScenarioRunner.runReplication(
      Self.scenario(placement: .home, lockScreenViewsPerHour: 30), replication: 0)
    #expect(many.eventsHandled == none.eventsHandled)
    #expect(many.fingerprint == none.fingerprint)
    #expect(many.staleness[0].views == none.staleness[0].views && none.staleness[0].views > 100)
    #expect(many.total(instance: 0) == none.total(instance: 0))
    #expect(many.totalJoules(subject: 0) == none.totalJoules(subject: 0))
  }

  @Test("with a Lock Screen widget the same views are simulated and seen")
  func lockScreenViewsWithALockScreenWidget() {
    let none = ScenarioRunner.runReplication(
      Self.scenario(placement: .lockScreen, lockScreenViewsPerHour: 0), replication: 0)
    let many = ScenarioRunner.runReplication(
      Self.scenario(placement: .lockScreen, lockScreenViewsPerHour: 30), replication: 0)
    // 30 an hour over about 16 waking hours a day for 5 days: thousands of views, each an event.
    #expect(many.staleness[0].views > 2_000 && none.staleness[0].views == 0)
    #expect(many.eventsHandled >= none.eventsHandled + UInt64(many.staleness[0].views))
  }

  @Test("Home Screen views on a phone whose widgets are all on the Lock Screen cost no event")
  func homeScreenViewsWithoutHomeScreenWidgets() {
    var quiet = Self.scenario(placement: .lockScreen, lockScreenViewsPerHour: 8)
    quiet.user.homeScreenViews = HourlyRate(perHour: 0)
    var busy = quiet
    busy.user.homeScreenViews = HourlyRate(perHour: 40)
    let a = ScenarioRunner.runReplication(quiet, replication: 0)
    let b = ScenarioRunner.runReplication(busy, replication: 0)
    #expect(a.eventsHandled == b.eventsHandled && a.fingerprint == b.fingerprint)
    #expect(a.staleness[0].views == b.staleness[0].views)
  }

  @Test("phones whose widgets are only in the Smart Stack or on another page still have their Home Screen views")
  func homeScreenViewsForStackAndOtherPage() {
    for placement in [WidgetPlacement.smartStack, .homeOtherPage] {
      var configuration = Self.scenario(placement: placement, lockScreenViewsPerHour: 0)
      configuration.user.homeScreenViews = HourlyRate(perHour: 0)
      let none = ScenarioRunner.runReplication(configuration, replication: 0)
      configuration.user.homeScreenViews = HourlyRate(perHour: 40)
      let many = ScenarioRunner.runReplication(configuration, replication: 0)
      #expect(many.eventsHandled > none.eventsHandled + 2_000, "\(placement)")
      #expect(many.staleness[0].views > none.staleness[0].views, "\(placement)")
    }
  }

  @Test("a widget not installed on this phone (fleet.install) sees no view, and its views cost no event")
  func viewsOfAWidgetNotInstalled() {
    var configuration = Self.scenario(placement: .home, lockScreenViewsPerHour: 0)
    configuration.user.homeScreenViews = HourlyRate(perHour: 0)
    let none = DeviceSimulation.run(configuration: configuration, replication: 0, installed: [false])
    configuration.user.homeScreenViews = HourlyRate(perHour: 40)
    let many = DeviceSimulation.run(configuration: configuration, replication: 0, installed: [false])
    #expect(many.eventsHandled == none.eventsHandled && many.staleness[0].views == 0)
  }

  @Test("Lock Screen views on a phone with a Live Activity but no Lock Screen widget are simulated and seen")
  func lockScreenViewsForLiveActivities() {
    var configuration = Self.scenario(placement: .home, lockScreenViewsPerHour: 30)
    configuration.liveActivities = [LiveActivityTests.activity()]
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.activityViews(kind: 0, surface: .lockScreen).views > 100)
  }

  @Test("Control Center views cost events only where a control is in Control Center")
  func controlCenterViews() {
    func run(_ placement: WidgetPlacement, perHour: Double) -> ReplicationResult {
      var configuration = ModelFixtures.quiet([ControlAndPlacementTests.control("door", placement: placement)], days: 5)
      configuration.user.controlCenterViews = HourlyRate(perHour: perHour)
      return ScenarioRunner.runReplication(configuration, replication: 0)
    }
    #expect(run(.controlCenter, perHour: 20).staleness[0].views > 1_000)
    #expect(run(.controlCenter, perHour: 20).eventsHandled > run(.controlCenter, perHour: 0).eventsHandled + 1_000)
    #expect(run(.lockScreen, perHour: 20).eventsHandled == run(.lockScreen, perHour: 0).eventsHandled)
  }
}
