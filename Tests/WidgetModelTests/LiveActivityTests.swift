import SimulationEngine
import Testing

@testable import WidgetModel

@Suite("Live Activities")
struct LiveActivityTests {
  static func scenario(_ activity: LiveActivityConfiguration, days: Int = 2) -> ScenarioConfiguration {
    var configuration = ModelFixtures.quiet([ModelFixtures.widget("w", policy: .never)], days: days)
    configuration.liveActivities = [activity]
    return configuration
  }

  static func activity(
    priority: Int = 10, interval: Double = 120, duration: Double = 4 * 3_600,
    at times: [TimeOfDay] = [
      TimeOfDay(hours: 9, minutes: 0)
    ]
  ) -> LiveActivityConfiguration {
    LiveActivityConfiguration(
      id: "delivery", startsPerDay: 0, startsAt: times, updateInterval: try! .constant(interval), priority: priority,
      duration: try! .constant(duration), end: .app, memoryBytes: try! .constant(10e6))
  }

  @Test("priority 10 with a constant stream is throttled exactly beyond the hourly budget")
  func priorityTenBudget() {
    // Updates every 2 min for 4 h (119 of them) against 12 an hour in a sliding hour: 12 admitted in each
    // of the four hours (2-24, 62-84, 122-144, 182-204 min), 71 throttled.
    let result = ScenarioRunner.runReplication(LiveActivityTests.scenario(LiveActivityTests.activity()), replication: 0)
    #expect(result.activities.count == 2)
    for record in result.activities {
      #expect(record.updatesSent == 119)
      #expect(record.updatesDelivered == 48)
      #expect(record.updatesThrottled == 71)
    }
  }

  @Test("the frequent-updates entitlement raises the budget unless the user turned it off")
  func frequentUpdates() {
    var activity = LiveActivityTests.activity(interval: 60)
    activity.frequentUpdates = true
    let frequent = ScenarioRunner.runReplication(LiveActivityTests.scenario(activity), replication: 0)
    #expect(frequent.activities.allSatisfy { $0.updatesThrottled == 0 })
    activity.frequentUpdatesAllowed = false
    let standard = ScenarioRunner.runReplication(LiveActivityTests.scenario(activity), replication: 0)
    #expect(standard.activities.allSatisfy { $0.updatesDelivered == 48 })
  }

  @Test("priority 5 is never throttled; one update pending per activity, newer ones supersede it")
  func priorityFive() {
    let activity = LiveActivityTests.activity(priority: 5, interval: 20)
    let result = ScenarioRunner.runReplication(LiveActivityTests.scenario(activity), replication: 0)
    for record in result.activities {
      #expect(record.updatesThrottled == 0)
      #expect(record.updatesSuperseded > 0, "20 s updates against a 30-60 s delay")
      #expect(record.updatesDelivered + record.updatesSuperseded == record.updatesSent)
    }
    #expect(result.pushTotal(target: 1, counter: .throttled) == 0)
  }

  @Test("an activity ends at 8 h and leaves the Lock Screen by 12 h")
  func lifetime() {
    let activity = LiveActivityTests.activity(
      interval: 600, duration: 10 * 3_600, at: [TimeOfDay(hours: 6, minutes: 0)])
    let result = ScenarioRunner.runReplication(LiveActivityTests.scenario(activity, days: 3), replication: 0)
    #expect(result.activities.count == 3)
    for record in result.activities {
      #expect(record.ending == .system)
      let end = SimTime.zero + .days(3)
      #expect(record.activeSeconds(simulationEnd: end) == 8 * 3_600)
      #expect(record.lockScreenSeconds(simulationEnd: end) == 4 * 3_600)
      #expect(record.dismissTime.map { ($0 - record.startTime).seconds } == Double(12 * 3_600))
    }
  }

  @Test("the concurrency cap rejects the (cap + 1)-th start")
  func concurrencyCap() {
    let times = (0..<6).map { TimeOfDay(hours: 9, minutes: $0) }
    var configuration = LiveActivityTests.scenario(LiveActivityTests.activity(interval: 600, at: times), days: 1)
    configuration.system.liveActivities.maxConcurrent = 5
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.activities.count == 6)
    #expect(result.activities.prefix(5).allSatisfy { $0.rejection == nil })
    #expect(result.activities[5].rejection == .cap)
    #expect(result.activities[5].ending == .rejectedCap)
  }

  @Test("push-to-start spends a small fixed budget")
  func pushToStart() {
    var activity = LiveActivityTests.activity(
      interval: 600, duration: 60, at: (0..<15).map { TimeOfDay(hours: 9, minutes: 2 * $0) })
    activity.start = .pushToStart
    var configuration = LiveActivityTests.scenario(activity, days: 1)
    configuration.system.liveActivities.pushToStartBudget = 10
    configuration.system.liveActivities.pushToStartRefillPerHour = 0
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.activities.filter { $0.rejection == nil }.count == 10)
    #expect(result.activities.filter { $0.rejection == .pushBudget }.count == 5)
  }

  @Test("final and push-to-start pushes are server load, and every delivered push wakes the device")
  func everyPushIsServerLoad() {
    var activity = LiveActivityTests.activity(
      interval: 120, duration: 1_800,
      at: [
        TimeOfDay(hours: 9, minutes: 0), TimeOfDay(hours: 9, minutes: 20), TimeOfDay(hours: 13, minutes: 0),
        TimeOfDay(hours: 13, minutes: 5),
      ])
    activity.start = .pushToStart
    activity.end = .push
    var configuration = LiveActivityTests.scenario(activity)
    configuration.system.liveActivities.pushToStartBudget = 3
    configuration.system.liveActivities.pushToStartRefillPerHour = 0
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    // The scenario exercises every kind of push: delivered and refused starts, delivered and throttled final pushes.
    #expect(result.activities.filter { $0.rejection == .pushBudget }.count == 5)
    #expect(result.activities.filter { $0.ending == .push }.count == 3)
    #expect(result.activities.contains { $0.ending == .push && $0.updatesThrottled > 0 })
    let targets = 0..<result.pushTargetCount
    let sent = targets.map { result.pushTotal(target: $0, counter: .sent) }.reduce(0, +)
    let delivered = targets.map { result.pushTotal(target: $0, counter: .delivered) }.reduce(0, +)
    #expect(Int(result.serverLoad.pushesSent.reduce(0, +)) == sent)
    #expect(Int(result.serverLoad.pushesDelivered.reduce(0, +)) == delivered)
    // The phone stays on, so each delivered push to the activity books one wake.
    #expect(result.drains == 0)
    let power = configuration.device.power
    let wakes = result.totalJoules(subject: result.activitySubject(0), component: .pushWake)
    let expected =
      Double(result.pushTotal(target: 1, counter: .delivered)) * power.pushWakeWatts * power.pushWakeSeconds
    #expect(abs(wakes - expected) < 1e-9)
    // Records agree with push.csv: the final push counts as the activity's last update.
    let records = result.activities.filter { $0.rejection == nil }
    #expect(
      records.map(\.updatesSent).reduce(0, +)
        == result.pushTotal(target: 1, counter: .sent) - result.activities.count)
    #expect(
      records.map(\.updatesDelivered).reduce(0, +)
        == result.pushTotal(target: 1, counter: .delivered) - (result.activities.count - 5))
  }

  /// An activity whose priority-5 updates never arrive (each is superseded before its delivery), so it is
  /// stale from its first update until its final push; Lock Screen views only after its end (10:00-13:00,
  /// before its dismissal at 14:00).
  static func supersededUntilTheEnd(end: ActivityEnd) -> ScenarioConfiguration {
    var activity = LiveActivityTests.activity(priority: 5, interval: 300, duration: 3_600)
    activity.end = end
    var configuration = LiveActivityTests.scenario(activity, days: 1)
    configuration.system.liveActivities.lowPriorityDelay = try! .constant(400)  // literal, valid
    configuration.user.lockScreenViews = HourlyRate(profile: (0..<24).map { (10..<13).contains($0) ? 20 : 0 })
    return configuration
  }

  @Test("a delivered final push renders the final content: views of the ended activity are not stale")
  func finalPushRenders() throws {
    let pushed = ScenarioRunner.runReplication(LiveActivityTests.supersededUntilTheEnd(end: .push), replication: 0)
    let record = try #require(pushed.activities.first)
    #expect(pushed.activities.count == 1 && record.ending == .push)
    #expect(record.updatesDelivered == 1 && record.updatesThrottled == 0 && record.updatesJetsam == 0)
    #expect(record.updatesDelivered + record.updatesSuperseded == record.updatesSent)
    #expect(pushed.activityStaleness[0].views > 20)
    #expect(pushed.activityStaleness[0].staleViews == 0)
    #expect(pushed.activityStaleness[0].seconds.maximum == 0)
    // One render, the final push's: no update was ever rendered.
    let power = LiveActivityTests.supersededUntilTheEnd(end: .push).device.power
    let render = pushed.totalJoules(subject: pushed.activitySubject(0), component: .render)
    #expect(abs(render - power.renderWatts * power.renderSecondsPerEntry) < 1e-9)

    // Ended by the app instead: the same views all see the content from before the first update.
    let app = ScenarioRunner.runReplication(LiveActivityTests.supersededUntilTheEnd(end: .app), replication: 0)
    #expect(app.activityStaleness[0].views == pushed.activityStaleness[0].views)
    #expect(app.activityStaleness[0].staleViews == app.activityStaleness[0].views)
    #expect(app.totalJoules(subject: app.activitySubject(0), component: .render) == 0)
  }

  @Test("staleness of an activity is measured at Lock Screen views: throttled updates leave it stale")
  func staleness() {
    let result = ScenarioRunner.runReplication(LiveActivityTests.scenario(LiveActivityTests.activity()), replication: 0)
    let seen = result.activityStaleness[0]
    #expect(seen.views > 20)
    #expect(seen.staleViews > 0 && seen.staleViews < seen.views)
  }
}
