import Fleets
import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

@Suite("Live Activity stale dates, Dynamic Island, starts, caps and broadcast channels")
struct ActivitySurfaceTests {
  /// One activity a day from 08:00 for 12 h (the system's 8 h cap lifted), updated every `interval` s.
  static func allDay(_ id: String = "match", interval: Double = 1_800, start: ActivityStart = .pushToStart)
    -> LiveActivityConfiguration
  {
    var activity = LiveActivityConfiguration(
      id: id, startsPerDay: 0, startsAt: [TimeOfDay(hours: 8, minutes: 0)], start: start,
      updateInterval: try! .constant(interval), duration: try! .constant(12 * 3_600), dismissal: .immediate,
      memoryBytes: try! .constant(1e6))
    activity.staleAfter = .minutes(10)
    return activity
  }

  static func scenario(_ activities: [LiveActivityConfiguration], days: Int = 20) -> ScenarioConfiguration {
    var configuration = ModelFixtures.quiet([ModelFixtures.widget("w", policy: .never)], days: days)
    configuration.liveActivities = activities
    configuration.system.liveActivities.maximumActive = .hours(13)
    configuration.system.liveActivities.pushToStartBudget = 100
    return configuration
  }

  @Test("stale_after 10 min with an update every 30 min: two thirds of Lock Screen views see a stale activity")
  func staleDate() {
    let result = ScenarioRunner.runReplication(
      ActivitySurfaceTests.scenario([ActivitySurfaceTests.allDay()]), replication: 0)
    let seen = result.activityViews(kind: 0, surface: .lockScreen)
    #expect(seen.views > 1_000)
    #expect(KnownAnswer.share(seen.pastStaleDate, of: seen.views, is: 2.0 / 3.0))
    // Every update is admitted (2 an hour), so the other measure (an update sent but not shown) stays 0.
    #expect(result.activityStaleness[0].staleViews == 0)
  }

  @Test("the Dynamic Island shows the most relevant running activity, compact or expanded by share")
  func dynamicIsland() {
    var low = ActivitySurfaceTests.allDay("low")
    low.relevanceScore = 1
    var high = ActivitySurfaceTests.allDay("high")
    high.relevanceScore = 5
    var configuration = ActivitySurfaceTests.scenario([low, high])
    configuration.user.dynamicIslandViews = HourlyRate(perHour: 4)
    configuration.user.dynamicIslandExpandedShare = 0.2
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.activityViews(kind: 0, surface: .dynamicIslandCompact).views == 0)
    #expect(result.activityViews(kind: 0, surface: .dynamicIslandExpanded).views == 0)
    let compact = result.activityViews(kind: 1, surface: .dynamicIslandCompact)
    let expanded = result.activityViews(kind: 1, surface: .dynamicIslandExpanded)
    let views = compact.views + expanded.views
    // 4 glances an hour during the 12 h the activities run (all awake): Poisson.
    #expect(KnownAnswer.count(views, poissonMean: 4 * 12 * 20))
    #expect(KnownAnswer.share(expanded.views, of: views, is: 0.2))
    #expect(KnownAnswer.share(compact.pastStaleDate + expanded.pastStaleDate, of: views, is: 2.0 / 3.0))
  }

  @Test("an app request outside the foreground fails with visibility; a start by the user opens the app")
  func startsNeedTheForeground() {
    let requested = ScenarioRunner.runReplication(
      ActivitySurfaceTests.scenario([ActivitySurfaceTests.allDay(start: .appRequest)], days: 3), replication: 0)
    #expect(requested.activities.count == 3)
    #expect(requested.activities.allSatisfy { $0.ending == .rejectedVisibility })
    #expect(requested.appWakeTotal(channel: .foreground, outcome: .granted) == 0)
    let started = ScenarioRunner.runReplication(
      ActivitySurfaceTests.scenario([ActivitySurfaceTests.allDay(start: .app)], days: 3), replication: 0)
    #expect(started.activities.allSatisfy { $0.rejection == nil })
    #expect(started.appWakeTotal(channel: .foreground, outcome: .granted) == 3, "each start opened the app")
  }

  @Test("over a cap the app rejects the start, or ends its oldest activity to make room")
  func capPolicies() {
    var activity = ActivitySurfaceTests.allDay()
    activity.startsAt = (0..<3).map { TimeOfDay(hours: 8, minutes: $0) }
    var configuration = ActivitySurfaceTests.scenario([activity], days: 1)
    configuration.system.liveActivities.maxConcurrent = 2
    let rejected = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(rejected.activities.map(\.ending) == [.app, .app, .rejectedCap])
    configuration.liveActivities[0].onCap = .endOldest
    let replaced = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(replaced.activities.map(\.ending) == [.replaced, .app, .app])
    configuration.system.liveActivities.maxConcurrent = 5
    configuration.system.liveActivities.maxConcurrentDevice = 1
    configuration.liveActivities[0].onCap = .reject
    let device = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(device.activities.map(\.ending) == [.app, .rejectedDeviceCap, .rejectedDeviceCap])
  }

  /// 1,000 devices each running the channel's activity from 00:01 to 07:55 UTC; the channel sends every
  /// 6 h on the UTC clock (00:00, 06:00, 12:00, 18:00): each device receives the 06:00 update.
  static func broadcastFleet(storage: BroadcastStorage = .none) -> ScenarioConfiguration {
    var activity = ActivitySurfaceTests.allDay(start: .app)
    activity.startsAt = [TimeOfDay(hours: 0, minutes: 1)]
    activity.duration = try! .constant(7 * 3_600 + 54 * 60)
    activity.broadcastChannel = 0
    var configuration = ActivitySurfaceTests.scenario([activity], days: 2)
    configuration.broadcastChannels = [
      BroadcastChannelConfiguration(id: "scores", storage: storage, updateInterval: try! .constant(6 * 3_600))
    ]
    configuration.fleet.devices = 1_000
    return configuration
  }

  @Test("a broadcast update reaches 1,000 devices with one server request; deliveries stay per device")
  func broadcast() throws {
    let configuration = ActivitySurfaceTests.broadcastFleet()
    let schedule = BroadcastSchedule(configuration, replication: 0)
    #expect(schedule.updates(channel: 0, days: 2) == 8, "every 6 h for 2 days")
    let result = FleetRunner.run(configuration, replication: 0, jobs: 2).result
    var broadcasts: Int64 = 0
    var activityPushes: Int64 = 0
    for slot in 0..<result.serverLoad.minuteCount {
      broadcasts += result.serverLoad.requests(slot: slot, source: .broadcast)
      activityPushes += result.serverLoad.requests(slot: slot, source: .activityPush)
    }
    let inRun = schedule.updates(channel: 0, days: 2)
    #expect(broadcasts >= Int64(inRun) && broadcasts <= Int64(inRun) + 6, "the run's updates, plus the ±14 h margin")
    #expect(activityPushes == 0, "no per-device push")
    #expect(result.pushTotal(target: 1, counter: .delivered) == 1_000 * 2, "the 06:00 update, on every device")
    let delivered: Int64 = result.serverLoad.pushesDelivered.reduce(0, +)
    #expect(delivered == 1_000 * 2)
  }

  @Test(
    "a phone that was off loses a no-storage update; most_recent keeps the latest (superseding the one before) and delivers it on return, its stale date from when it was sent"
  )
  func storagePolicies() throws {
    for storage in BroadcastStorage.allCases {
      var configuration = ActivitySurfaceTests.broadcastFleet(storage: storage)
      configuration.fleet.devices = 1
      var simulation = DeviceSimulation(configuration: configuration, replication: 0)
      var scheduler = Scheduler(capacity: 64)
      simulation.start(&scheduler)
      _ = scheduler.run(until: SimTime.zero + .hours(5), handler: &simulation)
      let sent = scheduler.now
      simulation.activities.broadcast(channel: 0, poweredOff: true, &scheduler, &simulation.recorder)
      simulation.activities.broadcast(channel: 0, poweredOff: true, &scheduler, &simulation.recorder)
      _ = scheduler.run(until: sent + .hours(1), handler: &simulation)
      simulation.activities.deviceReturned(&scheduler, &simulation.recorder)
      let result = simulation.result
      let record = simulation.activities.records[0]
      #expect(record.updatesSent == 2, "the stored message is not sent again")
      #expect(result.pushTotal(target: 1, counter: .sent) == 2)
      if storage == .mostRecent {
        #expect(record.updatesSuperseded == 1 && record.updatesDelivered == 1 && record.updatesLost == 0)
        #expect(simulation.activities.runtime[0].contentTime == sent, "the stale date counts from the send")
      } else {
        #expect(record.updatesLost == 2 && record.updatesDelivered == 0)
        #expect(result.pushTotal(target: 1, counter: .lost) == 2)
      }
      let settled = [PushCounter.delivered, .superseded, .throttled, .lost].map {
        result.pushTotal(target: 1, counter: $0)
      }
      #expect(settled.reduce(0, +) == 2, "every push sent is settled once: \(settled)")
    }
  }

  @Test("a channel whose interval outlasts its window sends nothing, and the schedule still ends")
  func emptyWindow() {
    var configuration = ActivitySurfaceTests.broadcastFleet()
    configuration.broadcastChannels[0].updateInterval = try! .constant(2 * 3_600)
    configuration.broadcastChannels[0].activeWindow = SleepWindow(
      from: TimeOfDay(hours: 20, minutes: 0), to: TimeOfDay(hours: 21, minutes: 0))
    #expect(BroadcastSchedule(configuration, replication: 0).utcMicros.isEmpty)
  }

  @Test("each running activity rotates its token: one registration each, only while it runs")
  func tokenRotations() {
    var activity = ActivitySurfaceTests.allDay()
    activity.tokenRotationsPerDay = 4
    activity.startsAt = [TimeOfDay(hours: 8, minutes: 0), TimeOfDay(hours: 8, minutes: 1)]
    let result = ScenarioRunner.runReplication(ActivitySurfaceTests.scenario([activity], days: 30), replication: 0)
    var registrations: Int64 = 0
    for slot in 0..<result.serverLoad.minuteCount {
      registrations += result.serverLoad.requests(slot: slot, source: .tokenRegistration)
    }
    // Two activities, each 4 a day for the 12 h a day they run.
    #expect(KnownAnswer.count(Int(registrations), poissonMean: 2 * 2 * 30))
  }
}
