import SimulationEngine
import Testing

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
}
