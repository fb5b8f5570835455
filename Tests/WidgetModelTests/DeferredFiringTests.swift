import SimulationEngine
import Testing

@testable import Results
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
    #expect(a.reloads == b.reloads, comment)
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
    #expect(a.drains == b.drains, comment)
    #expect(a.builds == b.builds, comment)
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
    pushed.data.pushes.insert(.widget)
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

  /// A small battery that drains to off under heavy use and comes back on the charger (power switches off
  /// and on at hour ends, with Low Power Mode as asked).
  static func draining(_ configuration: ScenarioConfiguration, usageWatts: Double = 1.5, lowPower: Bool = false)
    -> ScenarioConfiguration
  {
    var drained = configuration
    drained.device.battery = BatteryConfiguration(capacityJoules: 5 * 3_600)
    drained.device.power.usageWatts = usageWatts
    drained.device.charging = ChargingConfiguration(watts: 10)
    drained.device.lowPowerMode.enabled = lowPower
    return drained
  }

  /// Order bursts (scheduled changes that start a Live Activity the app opens for) seen on another page.
  static func burstyPhone() -> ScenarioConfiguration {
    var order = ModelFixtures.widget(
      "order", kind: "Order", policy: .after(.minutes(20)), changesPerHour: 2, onChange: .reloadKind)
    order.data.scheduled = ScheduledChanges(
      starts: ClockRate(HourlyRate(perHour: 6.0 / 24)), updates: 4, spacing: try! .constant(600))  // literal, valid
    let page = ModelFixtures.widget("page", kind: "Order", policy: .after(.minutes(30)), placement: .homeOtherPage)
    var configuration = ModelFixtures.quiet(
      [order, page], days: 4, budget: BudgetConfiguration(minPerDay: 8, maxPerDay: 12))
    configuration.user.homeScreenViews = HourlyRate(perHour: 30)
    configuration.user.appOpensPerDay = 4
    var activity = LiveActivityConfiguration(id: "o", startsPerDay: 0)
    activity.burstKind = "Order"
    activity.start = .app
    configuration.liveActivities = [activity]
    return configuration
  }

  /// A breaking-news fleet event with follow-ups, pushed to a push-handling widget.
  static func fleetEventPhone() -> ScenarioConfiguration {
    var news = ModelFixtures.widget("news", kind: "News", policy: .never)
    news.data.pushes.insert(.widget)
    news.pushHandler = true
    let other = ModelFixtures.widget(
      "other", kind: "Other", policy: .after(.minutes(20)), changesPerHour: 4, onChange: .reloadKind,
      placement: .homeOtherPage)
    var configuration = ModelFixtures.quiet(
      [news, other], days: 3, budget: BudgetConfiguration(minPerDay: 8, maxPerDay: 12))
    configuration.user.appOpensPerDay = 5
    configuration.user.homeScreenViews = HourlyRate(perHour: 30)
    configuration.fleet = FleetConfiguration(devices: 4, represents: 4)
    var event = FleetEventConfiguration(
      id: "breaking", times: [TimeOfDay(hours: 9, minutes: 0), TimeOfDay(hours: 18, minutes: 0)],
      dataKeys: ["News", "Other"])
    event.followUps = 2
    event.followUpSpacing = try! .constant(1_800)  // literal, valid
    configuration.events = [event]
    return configuration
  }

  /// Everything at once: a draining battery, the relevance stack, a likely other page, delays on app reloads
  /// and `.after`, StandBy at night, a silent-push kind, background refresh, a warm-up day.
  static func kitchenSink() -> ScenarioConfiguration {
    var configuration = Self.draining(Self.busyPhone(days: 3))
    configuration.user.smartStack.rule = .relevance
    configuration.user.otherPageProbability = 0.9
    configuration.system.appReloadDelay = try! .constant(3)  // literal, valid
    configuration.system.afterDelay = try! .constant(20)  // literal, valid
    configuration.system.standbyAtNight = true
    configuration.user.standbyViewsPerHour = 2
    configuration.widgets[3].data.pushes.remove(.widget)
    configuration.widgets[3].data.pushes.insert(.silent)
    configuration.app.backgroundRefresh.enabled = true
    configuration.app.backgroundRefresh.enabledProbability = 1
    configuration.warmupDays = 1
    return configuration
  }

  @Test("warm-up days, the app always running or busy, Live Activities, bursts, fleet events, a draining battery")
  func variantsAgree() {
    var warm = Self.busyPhone(days: 3)
    warm.warmupDays = 2
    var running = Self.draining(Self.busyPhone(days: 3))
    running.app.alwaysRunning = true
    var activity = Self.busyPhone(days: 3)
    var opening = LiveActivityConfiguration(id: "order", startsPerDay: 4)
    opening.start = .app
    activity.liveActivities = [LiveActivityConfiguration(id: "score", startsPerDay: 2), opening]
    var busyApp = Self.busyPhone(days: 3)
    busyApp.user.appOpensPerDay = 30
    busyApp.user.audioSessionsPerDay = 8
    busyApp.app.forceQuitsPerDay = 5
    var fixedStack = Self.busyPhone(days: 3)
    fixedStack.user.smartStack.rule = .fixed
    let cases: [(String, ScenarioConfiguration)] = [
      ("warm-up", warm), ("always running, draining", running), ("activities", activity), ("busy app", busyApp),
      ("fixed stack", fixedStack), ("draining", Self.draining(Self.busyPhone(days: 4))),
      ("draining in Low Power Mode", Self.draining(Self.busyPhone(days: 4), usageWatts: 0.4, lowPower: true)),
      ("bursts", Self.burstyPhone()), ("fleet event", Self.fleetEventPhone()), ("kitchen sink", Self.kitchenSink()),
    ]
    for (name, configuration) in cases {
      for device in 0..<2 {
        let offset = SimDuration.hours(Int64(device) * 3 - 4)
        let (eager, _) = Self.run(configuration, device: device, clockOffset: offset, defers: false)
        let (lazy, deferred) = Self.run(configuration, device: device, clockOffset: offset, defers: true)
        #expect(deferred > 0, "\(name)")
        Self.expectSame(eager, lazy, "\(name), device \(device)")
      }
    }
    // The draining phones do switch off (and come back), so those paths ran.
    let (drained, _) = Self.run(Self.draining(Self.busyPhone(days: 4)), defers: true)
    #expect(drained.drains > 0)
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
      let (lazy, deferred) = Self.run(
        configuration, device: device, clockOffset: offset, installed: installed, installTime: installTime,
        defers: true)
      #expect(deferred > 0, "device \(device)")
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
