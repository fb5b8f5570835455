import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// `app.dormant_after`: silent pushes are not delivered, and Background App Refresh does not run, for an
/// app the user has not launched for a while [D: forums thread 776933].
@Suite struct DormancyTests {
  static func stream(_ number: UInt64) -> RandomStream {
    RandomStream(seed: StreamSeed(scenarioSeed: 1, replication: 0, entity: 0, stream: number))
  }

  static func app(dormantAfter: SimDuration?) -> AppProcess {
    var settings = AppConfiguration()
    settings.dormantAfter = dormantAfter
    return AppProcess(
      kinds: 1, settings: settings,
      streams: AppStreams(
        sessionLength: stream(1), audioSessionLength: stream(2), widgetOpens: stream(3), fetch: stream(4)))
  }

  static let second = SimDuration.seconds(1)

  /// The process machine, input by input: launched by the user at 0 (the install), the app is launched in
  /// the background until `dormant_after` has passed and refused from then on, whatever the channel; a
  /// background launch does not reset the clock; running in an audio session it takes a push there; an open
  /// by the user resets it.
  @Test func dormancyRefusesBackgroundLaunchesUntilTheNextOpen() throws {
    let after = SimDuration.days(3)
    var app = Self.app(dormantAfter: after)
    let start = SimTime.zero
    #expect(app.launch(.silentPush, at: start) == .run(.silentPush))
    app.backgroundTaskEnded()
    let justBefore = start + after - Self.second
    #expect(app.launch(.backgroundRefresh, at: justBefore) == .run(.backgroundRefresh))
    app.backgroundTaskEnded()
    #expect(!app.isDormant(at: justBefore))
    let dormantAt = start + after
    #expect(app.isDormant(at: dormantAt))
    #expect(app.launch(.silentPush, at: dormantAt) == .denied(.deniedDormant))
    #expect(app.launch(.backgroundRefresh, at: dormantAt + .days(10)) == .denied(.deniedDormant))
    #expect(app.life == .suspended)

    // An audio session runs the app: a channel finds it running, nothing is launched.
    let day4 = start + .days(4)
    var audioClock = Scheduler(start: day4, capacity: 8)
    app.audioStarted(length: try .constant(600), &audioClock)
    #expect(!app.isDormant(at: day4))
    #expect(app.launch(.silentPush, at: day4) == .run(.audioSession))
    app.audio.cut(&audioClock)
    #expect(app.isDormant(at: day4))

    // An open by the user: in the foreground a channel runs there; after it the clock starts again.
    let day5 = start + .days(5)
    var clock = Scheduler(start: day5, capacity: 8)
    app.opened(length: try .constant(60), widgetShare: 0, ignoreWindow: .zero, &clock)
    #expect(app.launch(.silentPush, at: day5) == .run(.appForeground))
    app.handle(.close)
    #expect(app.launch(.silentPush, at: day5 + after - Self.second) == .run(.silentPush))
    app.backgroundTaskEnded()
    #expect(app.launch(.silentPush, at: day5 + after) == .denied(.deniedDormant))
  }

  /// `dormant_after: none` (nil): never dormant; a force-quit still wins over dormancy.
  @Test func noDormancyAndForceQuitFirst() {
    var never = Self.app(dormantAfter: nil)
    #expect(never.launch(.silentPush, at: .zero + .days(365)) == .run(.silentPush))
    var quit = Self.app(dormantAfter: .days(1))
    var clock = Scheduler(capacity: 8)
    quit.forceQuit(&clock)
    #expect(quit.launch(.silentPush, at: .zero + .days(2)) == .denied(.deniedForceQuit))
  }

  /// The silent push channel, input by input: a push delivered to a dormant app is spent (denied, reason
  /// `dormant`, for the device to count), takes no place under the hourly cap, and launches nothing.
  @Test func silentPushToADormantAppIsSpent() throws {
    let settings = LaunchingPushConfiguration(perHour: 1, perDay: 48, delay: try .constant(0))
    var channel = LaunchingPushChannel(.silent, settings: settings, delayStream: Self.stream(5))
    #expect(channel.send(at: .zero) == LaunchingPushChannel.Send(droppedHour: nil, deliverAt: .zero))
    let refused = channel.deliver(at: .zero, poweredOff: false, forceQuit: false, dormant: true)
    #expect(refused == .reached(.deniedDormant, sendHour: 0))
    #expect(AppWakeOutcome.deniedDormant.outcome == "denied" && AppWakeOutcome.deniedDormant.reason == "dormant")
    // Nothing held: a second delivery finds no push.
    #expect(channel.deliver(at: .zero, poweredOff: false, forceQuit: false, dormant: false) == .none)
    // The refused push did not use the hour's one launch: the next push launches the app at once.
    _ = channel.send(at: .zero)
    #expect(
      channel.deliver(at: .zero, poweredOff: false, forceQuit: false, dormant: false) == .reached(.granted, sendHour: 0)
    )
  }

  /// Background App Refresh, input by input: a request considered while the app is dormant is denied with
  /// the reason `dormant` and not considered again (the next open submits a new one), like a force-quit.
  @Test func backgroundRefreshEndsForADormantApp() {
    var refresh = BackgroundRefresh(
      settings: BackgroundRefreshConfiguration(enabled: true), expectedOpensPerDay: 10, stream: Self.stream(6),
      setting: true)
    var scheduler = Scheduler(capacity: 8)
    var log = AppTimersTests.WakeLog()
    refresh.submit(&scheduler, &log)
    #expect(refresh.isPending)
    let awake = refresh.consider(
      forceQuit: false, dormant: false, lowPowerMode: true, stateOfCharge: 1, charging: false, &scheduler)
    #expect(awake == .deniedLowPowerMode && refresh.isPending)
    let dormant = refresh.consider(
      forceQuit: false, dormant: true, lowPowerMode: true, stateOfCharge: 1, charging: false, &scheduler)
    #expect(dormant == .deniedDormant && !refresh.isPending)
  }

  /// A widget that reads the store the app writes, with a silent push on every change (2 an hour) and a
  /// policy reload every hour as the fallback, over 7 days.
  static func silentPushDevice(opensPerDay: Double, dormantAfter: SimDuration?) -> ScenarioConfiguration {
    var widget = ModelFixtures.widget("w", policy: .after(.hours(1)), changesPerHour: 2, onChange: .reloadKind)
    widget.build.fetchProbability = 0
    widget.data.pushes.insert(.silent)
    var configuration = ModelFixtures.quiet([widget])
    configuration.user.appOpensPerDay = opensPerDay
    configuration.app.dormantAfter = dormantAfter
    configuration.system.silentPush.delay = try! .constant(0)  // literal, valid
    return configuration
  }

  /// Nobody opens the app: with `dormant_after` 3 days every silent-push reload falls in the first 3 days,
  /// every push delivered later is denied `dormant`, and the store, never written again, leaves the widget's
  /// views hours stale on average where without dormancy they are minutes stale.
  @Test func anAppNobodyOpensStopsRefreshingAfterDormantAfter() {
    let after = SimDuration.days(3)
    let dormant = DeviceSimulation.run(
      configuration: Self.silentPushDevice(opensPerDay: 0, dormantAfter: after), replication: 0, trace: true)
    let awake = DeviceSimulation.run(
      configuration: Self.silentPushDevice(opensPerDay: 0, dormantAfter: nil), replication: 0, trace: true)
    let pushReloads = (dormant.trace ?? []).filter { $0.cause == .silentPush }
    // About 144 changes in 3 days, each a push the cap lets through; their reloads, budgeted, coalesce while
    // the user sleeps (requests wait for the wake) and within `min_interval`: still well over 50.
    #expect(pushReloads.count > 50)
    #expect(pushReloads.allSatisfy { $0.requestTime < .zero + after })
    #expect((awake.trace ?? []).contains { $0.cause == .silentPush && $0.requestTime > .zero + after })
    for record in dormant.appTrace ?? [] {
      if case .launch(.silentPush, let outcome) = record.event, record.time >= .zero + after {
        #expect(outcome == .deniedDormant || outcome == .dropped, "\(outcome) at \(record.time)")
      }
    }
    let refused = dormant.appWakeTotal(channel: .silentPush, outcome: .deniedDormant)
    // About 2 changes an hour for 4 days, thinned by the one-held-push rule: far more than 50.
    #expect(refused > 50)
    #expect(awake.appWakeTotal(channel: .silentPush, outcome: .deniedDormant) == 0)
    // Views after day 3 (4 of 7 days) see data that stopped at day 3 within minutes (P(no change in an hour)
    // = e^-2), so they are on average about 2 days stale: the mean over the week is above 12 h. Without
    // dormancy a push reaches the app within the hourly cap: the mean stays below an hour.
    #expect(dormant.staleness[0].seconds.mean > 12 * 3_600)
    #expect(awake.staleness[0].seconds.mean < 3_600)
    #expect(dormant.total(instance: 0, cause: .silentPush) < awake.total(instance: 0, cause: .silentPush) / 2)
  }

  /// Opened 4 times a day (a 3-day gap has probability about e^-12 per window), the app never goes
  /// dormant: the run is the same draw for draw with dormancy on or off.
  @Test func anAppOpenedDailyIsUnaffected() {
    let on = DeviceSimulation.run(
      configuration: Self.silentPushDevice(opensPerDay: 4, dormantAfter: .days(3)), replication: 0)
    let off = DeviceSimulation.run(
      configuration: Self.silentPushDevice(opensPerDay: 4, dormantAfter: nil), replication: 0)
    #expect(on.appWakeTotal(channel: .silentPush, outcome: .deniedDormant) == 0)
    #expect(on.appWakeTotal(channel: .silentPush, outcome: .granted) > 100)
    #expect(on.total(instance: 0) == off.total(instance: 0))
    #expect(on.total(instance: 0, cause: .silentPush) == off.total(instance: 0, cause: .silentPush))
    #expect(on.staleness[0].seconds.mean == off.staleness[0].seconds.mean)
  }
}
