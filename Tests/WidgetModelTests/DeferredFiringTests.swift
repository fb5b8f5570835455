import SimulationEngine
import Testing

@testable import WidgetModel

/// Poisson firings that wait for the device's next event (views, data changes the app does not learn of)
/// change nothing: every figure, the trajectory fingerprint and the events handled equal those of the same
/// device with every firing an event of its own.
@Suite("Deferred firings")
struct DeferredFiringTests {
  /// One device of `configuration`, with deferral as `defers` says; its result and how many firings waited.
  static func run(
    _ configuration: ScenarioConfiguration, device: Int = 0, clockOffset: SimDuration = .zero,
    installed: [Bool]? = nil, installTime: SimDuration = .zero, defers: Bool
  ) -> (ReplicationResult, UInt64) {
    var simulation = DeviceSimulation(
      configuration: configuration, replication: 0, device: device, clockOffset: clockOffset, installed: installed,
      installTime: installTime)
    simulation.defersFirings = defers
    simulation.simulate()
    let deferred = simulation.tally.deferredFirings
    return (simulation.takeResult(), deferred)
  }

  /// Every figure a report reads from a one-device result, compared.
  static func expectSame(_ a: ReplicationResult, _ b: ReplicationResult, _ comment: Comment) {
    #expect(a.fingerprint == b.fingerprint, comment)
    #expect(a.eventsHandled == b.eventsHandled, comment)
    #expect(a.reloadCounts == b.reloadCounts, comment)
    #expect(a.reloadTotals == b.reloadTotals, comment)
    #expect(a.budgetMilli == b.budgetMilli, comment)
    #expect(a.staleness == b.staleness, comment)
    #expect(a.burstStaleness == b.burstStaleness, comment)
    #expect(a.energy.microjoules == b.energy.microjoules, comment)
    #expect(a.stateOfChargePPM == b.stateOfChargePPM, comment)
    #expect(a.appWakes == b.appWakes, comment)
    #expect(a.pushCounts == b.pushCounts, comment)
    #expect(a.activityViews == b.activityViews, comment)
    #expect(a.serverLoad.fetches == b.serverLoad.fetches, comment)
    #expect(a.serverLoad.bytes == b.serverLoad.bytes, comment)
  }

  /// Home, another page, the Smart Stack and the Lock Screen; a kind the app reloads on change, one
  /// announced by WidgetKit pushes (never deferred), a tight budget so requests wait (and the other page's
  /// catch-up gate closes); the app opened, in audio sessions, and force-quit.
  static func busyPhone(days: Int = 6) -> ScenarioConfiguration {
    var news = ModelFixtures.widget("news", policy: .after(.minutes(15)), changesPerHour: 3, onChange: .reloadKind)
    news.instances = 2
    let page = ModelFixtures.widget(
      "page", kind: "Kind_news", policy: .after(.minutes(30)), placement: .homeOtherPage)
    let stack = ModelFixtures.widget("stack", policy: .atEnd, changesPerHour: 1, placement: .smartStack)
    var pushed = ModelFixtures.widget("pushed", policy: .never, changesPerHour: 2, placement: .lockScreen)
    pushed.data.push = true
    var configuration = ModelFixtures.quiet(
      [news, page, stack, pushed], days: days,
      budget: BudgetConfiguration(minPerDay: 8, maxPerDay: 12))
    configuration.user.appOpensPerDay = 6
    configuration.user.audioSessionsPerDay = 1
    configuration.user.lockScreenViews = HourlyRate(perHour: 10)
    configuration.user.homeScreenViews = HourlyRate(perHour: 12)
    configuration.app.forceQuitsPerDay = 1
    return configuration
  }

  @Test("a busy phone: the same figures, fingerprint and events, with most firings deferred")
  func busyPhoneAgrees() {
    let configuration = Self.busyPhone()
    let (eager, none) = Self.run(configuration, defers: false)
    let (lazy, deferred) = Self.run(configuration, defers: true)
    #expect(none == 0)
    // Views at 12 and 10 an hour and data changes at 6 an hour over six days: thousands of firings.
    #expect(deferred > 1_000 && deferred < lazy.eventsHandled)
    Self.expectSame(eager, lazy, "busy phone")
  }

  @Test("warm-up days, the app always running, and a Live Activity on the Lock Screen")
  func variantsAgree() {
    var warm = Self.busyPhone(days: 3)
    warm.warmupDays = 2
    var running = Self.busyPhone(days: 3)
    running.app.alwaysRunning = true
    var activity = Self.busyPhone(days: 3)
    activity.liveActivities = [LiveActivityConfiguration(id: "order", startsPerDay: 2)]
    for (name, configuration) in [("warm-up", warm), ("always running", running), ("activity", activity)] {
      let (eager, _) = Self.run(configuration, defers: false)
      let (lazy, deferred) = Self.run(configuration, defers: true)
      #expect(deferred > 0, "\(name)")
      Self.expectSame(eager, lazy, "\(name)")
    }
  }

  @Test("devices of a fleet (other seeds, time zones, install times) agree too")
  func fleetDevicesAgree() {
    let configuration = Self.busyPhone(days: 2)
    for device in 1...6 {
      let offset = SimDuration.hours(Int64(device) - 3)
      let installed = [true, device % 2 == 0, true, device != 3]
      let installTime = SimDuration.hours(Int64(device % 3) * 5)
      let (eager, _) = Self.run(
        configuration, device: device, clockOffset: offset, installed: installed, installTime: installTime,
        defers: false)
      let (lazy, _) = Self.run(
        configuration, device: device, clockOffset: offset, installed: installed, installTime: installTime,
        defers: true)
      Self.expectSame(eager, lazy, "device \(device)")
    }
  }

  @Test("a traced device defers nothing: its timeline is written as events run")
  func tracedDeviceDefersNothing() {
    var simulation = DeviceSimulation(configuration: Self.busyPhone(days: 1), replication: 0)
    simulation.trace = []
    simulation.simulate()
    #expect(simulation.tally.deferredFirings == 0)
  }
}
