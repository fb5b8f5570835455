import SimulationEngine
import Statistics
import Testing

@testable import Results
@testable import WidgetModel

/// The host app's process and its wake channels: the app learns of a change only when it runs.
@Suite struct AppProcessTests {
  /// No wake channel, no opens, no audio: the app never runs, so `on_change: reload_kind` reloads nothing.
  @Test func appThatNeverRunsNeverReloads() {
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("w", policy: .never, changesPerHour: 6, onChange: .reloadKind)])
    configuration.system.widgetAddedReload = false
    let result = DeviceSimulation.run(configuration: configuration, replication: 0)
    #expect(result.total(instance: 0) == 0)
    for channel in AppWakeChannel.allCases { #expect(result.appWakeTotal(channel: channel) == 0) }
    #expect(result.staleness[0].views > 0)
  }

  /// With app opens only, the app's reloads happen only at opens: one `app_foreground` request per open
  /// (and per change while it is open), never a background cause.
  @Test func appOpensAreTheOnlyAppReloads() {
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("w", policy: .never, changesPerHour: 6, onChange: .reloadKind)])
    configuration.system.widgetAddedReload = false
    configuration.user.appOpensPerDay = 6
    let result = DeviceSimulation.run(configuration: configuration, replication: 0, trace: true)
    let opens = (result.appTrace ?? []).filter { $0.event == .opened }.count
    #expect(opens > 20)
    #expect(result.appWakeTotal(channel: .foreground) == opens)
    for cause in [ReloadCause.appReload, .backgroundRefresh, .silentPush, .policy] {
      #expect(result.total(instance: 0, cause: cause) == 0)
    }
    #expect(result.total(instance: 0, cause: .appForeground) >= opens)
  }

  /// The idealised app (`always_running`) keeps a widget current: staleness p95 is 0 there and not without it.
  @Test func alwaysRunningIsTheUpperBound() {
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("w", policy: .after(.minutes(30)), changesPerHour: 2, onChange: .reloadKind)])
    configuration.user.appOpensPerDay = 4
    configuration.app.alwaysRunning = true
    let ideal = DeviceSimulation.run(configuration: configuration, replication: 0)
    configuration.app.alwaysRunning = false
    let real = DeviceSimulation.run(configuration: configuration, replication: 0)
    #expect(ideal.staleness[0].quantiles.quantile(0.95) == 0)
    #expect(real.staleness[0].quantiles.quantile(0.95) > 60)
    #expect(ideal.total(instance: 0, cause: .appReload) > 0)
    #expect(real.total(instance: 0, cause: .appReload) == 0)
  }

  /// A widget that does not fetch shows what the app last wrote: with a policy reload but no app run it
  /// stays as stale as the store; a widget that fetches is current after each build.
  @Test func widgetsWithoutFetchShowTheStore() {
    var reading = ModelFixtures.widget("reads", policy: .after(.minutes(15)), changesPerHour: 4)
    reading.build.fetchProbability = 0
    let fetching = ModelFixtures.widget("fetches", kind: "Kind_reads", policy: .after(.minutes(15)))
    var configuration = ModelFixtures.quiet([reading, fetching])
    configuration.budget.debug = true
    let result = DeviceSimulation.run(configuration: configuration, replication: 0)
    let readsMean = result.staleness[0].seconds.mean
    let fetchesMean = result.staleness[1].seconds.mean
    // Never refreshed by the app, the store is behind since the first change: hours, and growing.
    #expect(readsMean > 24 * 3_600)
    // Fetching every 15 min (no delay), the mean is at most about 7.5 min plus the sleep gap.
    #expect(fetchesMean < 3_600)
  }

  /// Silent pushes at 10 an hour against a cap of 3 an hour: at most 3 launches in any sliding hour, and
  /// every push sent gets exactly one outcome.
  @Test func silentPushesRespectTheHourlyCap() {
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("w", policy: .never, changesPerHour: 10, onChange: .reloadKind)])
    configuration.widgets[0].data.pushes.insert(.silent)
    configuration.system.silentPush.perHour = 3
    configuration.system.silentPush.perDay = 1_000
    configuration.system.silentPush.delay = try! .constant(0)  // literal, valid
    let result = DeviceSimulation.run(configuration: configuration, replication: 0, trace: true)
    let launches = (result.appTrace ?? []).compactMap { record -> Int64? in
      if case .launch(.silentPush, let outcome) = record.event, outcome.ran { return record.time.microseconds }
      return nil
    }
    #expect(launches.count > 3 * 24 * 7 - 10)
    #expect(ModelFixtures.busiestWindow(launches, length: .hours(1)) <= 3)
    let sent = result.serverLoad.pushesSent.reduce(0, +)
    var outcomes = 0
    for outcome in AppWakeOutcome.allCases { outcomes += result.appWakeTotal(channel: .silentPush, outcome: outcome) }
    #expect(Int64(outcomes) == sent)
    #expect(result.appWakeTotal(channel: .silentPush, outcome: .dropped) > 0)
  }

  /// Background refresh is never granted after a force-quit before the next open, nor in Low Power Mode.
  @Test func backgroundRefreshRespectsForceQuitAndLowPowerMode() {
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("w", policy: .never, changesPerHour: 2, onChange: .reloadKind)], days: 14)
    configuration.user.appOpensPerDay = 6
    configuration.app.forceQuitsPerDay = 3
    configuration.app.backgroundRefresh = BackgroundRefreshConfiguration(enabled: true, delay: .minutes(10))
    // A small battery without a charger: Low Power Mode comes on within days.
    configuration.device.battery.capacityJoules = 60_000
    configuration.device.charging = nil
    let result = DeviceSimulation.run(configuration: configuration, replication: 0, trace: true)
    var forceQuit = false
    var granted = 0
    for record in result.appTrace ?? [] {
      switch record.event {
      case .opened: forceQuit = false
      case .forceQuit: forceQuit = true
      case .launch(.backgroundRefresh, let outcome):
        if outcome.ran {
          granted += 1
          #expect(!forceQuit, "granted at \(record.time) after a force-quit")
          let hour = record.time.hourIndex
          #expect(hour == 0 || !result.lowPowerMode[hour - 1], "granted at \(record.time) in Low Power Mode")
        }
      case .launch: break
      }
    }
    #expect(granted > 10)
    #expect(result.appWakeTotal(channel: .backgroundRefresh, outcome: .deniedForceQuit) > 0)
    #expect(result.appWakeTotal(channel: .backgroundRefresh, outcome: .deniedLowPowerMode) > 0)
  }

  /// The process machine: a force-quit app is not launched until the user opens it again.
  @Test func forceQuitBlocksLaunchesUntilTheNextOpen() {
    var app = AppProcess(
      kinds: 1, settings: AppConfiguration(),
      streams: AppStreams(
        sessionLength: RandomStream(seed: StreamSeed(scenarioSeed: 1, replication: 0, entity: 0, stream: 1)),
        audioSessionLength: RandomStream(seed: StreamSeed(scenarioSeed: 1, replication: 0, entity: 0, stream: 2)),
        widgetOpens: RandomStream(seed: StreamSeed(scenarioSeed: 1, replication: 0, entity: 0, stream: 3)),
        fetch: RandomStream(seed: StreamSeed(scenarioSeed: 1, replication: 0, entity: 0, stream: 4))))
    var scheduler = Scheduler(capacity: 8)
    #expect(app.life == .notRunning)
    #expect(app.launch(.backgroundRefresh, at: scheduler.now) == .run(.backgroundRefresh))
    app.backgroundTaskEnded()
    #expect(app.life == .suspended)
    app.forceQuit(&scheduler)
    #expect(app.launch(.silentPush, at: scheduler.now) == .denied(.deniedForceQuit))
    #expect(app.launch(.backgroundRefresh, at: scheduler.now) == .denied(.deniedForceQuit))
    app.opened(length: try! .constant(60), widgetShare: 0, ignoreWindow: .zero, &scheduler)  // literal, valid
    #expect(app.life == .foreground)
    #expect(app.launch(.silentPush, at: scheduler.now) == .run(.appForeground))
    app.handle(.close)
    #expect(app.life == .suspended)
    #expect(app.launch(.silentPush, at: scheduler.now) == .run(.silentPush))
  }

  /// With no push and no app wake, a longer `.after` interval never gives a fresher widget: the paired
  /// difference in mean staleness (same replications, common random numbers) has a 95% CI reaching 0 or above.
  @Test func longerIntervalsAreNeverFresher() throws {
    let intervals: [SimDuration] = [.minutes(15), .minutes(30), .minutes(60), .minutes(120)]
    var means: [[Double]] = []
    for interval in intervals {
      var configuration = ModelFixtures.quiet(
        [ModelFixtures.widget("w", policy: .after(interval), changesPerHour: 2, onChange: .reloadKind)])
      configuration.system.afterDelay = try .exponential(mean: 240)
      means.append(
        (0..<12).map { ScenarioRunner.runReplication(configuration, replication: $0).staleness[0].seconds.mean })
    }
    for step in 1..<intervals.count {
      var differences = RunningStatistics()
      for (longer, shorter) in zip(means[step], means[step - 1]) { differences.add(longer - shorter) }
      let interval = try #require(ConfidenceInterval(differences))
      #expect(interval.high >= 0, "\(intervals[step]) fresher than \(intervals[step - 1]): \(interval)")
      #expect(differences.mean > 0)
    }
  }
}
