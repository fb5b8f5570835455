import SimulationEngine
import Testing

@testable import WidgetModel

/// Data changes on their own clock: rates over windows finer than an hour, bursts of updates, and
/// freshness while a burst is under way.
@Suite("Bursts and clock windows")
struct BurstTests {
  @Test("a windowed rate puts every change inside its windows, as many as the rate says (99.9% interval)")
  func windowsHoldTheirChanges() {
    let rate = ClockRate(windows: [
      (TimeOfDay(hours: 11, minutes: 30), TimeOfDay(hours: 13, minutes: 30), 6),
      (TimeOfDay(hours: 23, minutes: 45), TimeOfDay(hours: 0, minutes: 15), 12),
    ])
    #expect(abs(rate.perDay - 18) < 1e-9)
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 3, replication: 0, entity: 0, stream: 9))
    let days = 400
    let end = SimTime.zero + .days(Int64(days))
    var time = SimTime.zero
    var lunch = 0
    var midnight = 0
    while let next = rate.next(after: time, before: end, stream) {
      let minute = Int(next.sinceMidnight.microseconds / 60_000_000)
      if (690..<810).contains(minute) {
        lunch += 1
      } else if minute >= 1_425 || minute < 15 {
        midnight += 1
      } else {
        Issue.record("a change at minute \(minute), outside every window")
      }
      time = next
    }
    // Poisson counts: mean 12 x 400 and 6 x 400 a day's worth; 3.3 standard deviations.
    #expect(abs(Double(lunch) - 4_800) < 3.3 * 4_800.squareRoot())
    #expect(abs(Double(midnight) - 2_400) < 3.3 * 2_400.squareRoot())
  }

  /// One always-running widget whose kind changes in bursts of 4 updates 10 minutes apart.
  static func bursty(startsPerDay: Double = 6) -> ScenarioConfiguration {
    var widget = ModelFixtures.widget("order", kind: "Order", policy: .never, onChange: .reloadKind)
    widget.data.scheduled = ScheduledChanges(
      starts: ClockRate(HourlyRate(perHour: startsPerDay / 24)), updates: 4, spacing: try! .constant(600))
    var configuration = ModelFixtures.alwaysRunning([widget], days: 30)
    configuration.user.homeScreenViews = HourlyRate(perHour: 30)
    return configuration
  }

  @Test("a burst is its updates, spaced as asked; views in bursts are recorded apart")
  func burstsAndTheirViews() {
    var configuration = BurstTests.bursty()
    configuration.widgets[0].data.pushes.insert(.widget)
    configuration.system.widgetPush.delay = try! .constant(0)
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    // Every update sends a push: 6 bursts a day over 30 days, 4 updates each, 720 expected; the bursts are
    // Poisson (180 expected), so 3.3 sd is 3.3 x 4 x sqrt(180).
    let updates = result.pushTotal(target: 0, counter: .sent)
    #expect(updates % 4 == 0 || result.burstStaleness[0].views > 0)
    #expect(abs(Double(updates) - 720) < 3.3 * 4 * 180.0.squareRoot())
    let inBurst = result.burstStaleness[0]
    let all = result.staleness[0]
    #expect(inBurst.views > 0 && inBurst.views < all.views)
    // 30 min of each burst in 4 h on average: an eighth of the awake views, give or take.
    let share = Double(inBurst.views) / Double(all.views)
    #expect(share > 0.06 && share < 0.2, "share of views in bursts \(share)")
  }

  @Test("a Live Activity tied to bursts starts with each and is pushed every later update")
  func activityOnBurst() {
    var configuration = BurstTests.bursty(startsPerDay: 3)
    var activity = LiveActivityConfiguration(id: "delivery")
    activity.burstKind = "Order"
    activity.startsPerDay = 0
    activity.ownUpdates = false
    activity.start = .app
    activity.duration = try! .constant(3_600)
    configuration.liveActivities = [activity]
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let started = result.activities.filter { $0.rejection == nil }
    #expect(started.count > 40)
    // Each started activity got the burst's three later updates (none of its own).
    #expect(started.allSatisfy { $0.updatesSent == 3 })
    // The activity pushes sent are those updates: three per started activity.
    var pushes: Int64 = 0
    for slot in 0..<result.serverLoad.minuteCount {
      pushes += result.serverLoad.requests(slot: slot, source: .activityPush)
    }
    #expect(pushes == Int64(3 * started.count))
  }
}
