import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// The Live Activities driven input by input without a device: a log of the timers they ask for stands in
/// for the scheduler, and a log of what they record for the result.
@Suite("Live Activities' timers, input by input")
struct LiveActivityTimersTests {
  typealias Recording = LiveActivitiesRecordingTests.Log
  typealias Expected = [TimerLog.Entry]
  static let first = ActivityID(0).eventTarget

  static func every(_ seconds: Double) throws -> Distribution { try .constant(seconds) }

  @Test("each kind's fixed daily starts are asked for at their times of day")
  func fixedStarts() {
    let kind = LiveActivityConfiguration(
      id: "match", startsAt: [TimeOfDay(hours: 8, minutes: 0), TimeOfDay(hours: 18, minutes: 30)])
    let activities = LiveActivitiesRecordingTests.activities([kind], system: LiveActivitySystemConfiguration())
    var timers = TimerLog()
    activities.start(&timers)
    #expect(
      timers.take() == [
        .schedule(ActivityStartEvent.scheduled, 0, at: .zero + .hours(8)),
        .schedule(ActivityStartEvent.scheduled, 0, at: .zero + .hours(18) + .minutes(30)),
      ] as Expected)
  }

  @Test("a start asks for its update, its end and the system's; its end cancels them and asks for the dismissal")
  func startUpdateEnd() throws {
    let kind = LiveActivityConfiguration(
      id: "ride", updateInterval: try Self.every(600), duration: try Self.every(3_600))
    var activities = LiveActivitiesRecordingTests.activities([kind], system: LiveActivitySystemConfiguration())
    let nine = SimTime.zero + .hours(9)
    var timers = TimerLog(now: nine)
    var log = Recording()
    activities.startActivity(ActivityKindID(0), appInForeground: true, &timers, &log)
    #expect(
      timers.take() == [
        .schedule(ActivityEvent.update, Self.first, at: nine + .minutes(10)),
        .schedule(ActivityEvent.end, Self.first, at: nine + .hours(1)),
        .schedule(ActivityEvent.systemEnd, Self.first, at: nine + .hours(8)),
      ] as Expected)
    timers.now = nine + .minutes(10)
    activities.handle(.update, target: Self.first, poweredOff: false, &timers, &log)
    #expect(timers.take() == [.schedule(ActivityEvent.update, Self.first, at: nine + .minutes(20))] as Expected)
    #expect(log.pushes.map(\.counter) == [.sent, .delivered])
    timers.now = nine + .hours(1)
    activities.handle(.end, target: Self.first, poweredOff: false, &timers, &log)
    #expect(
      timers.take() == [
        .cancel(ActivityEvent.update, Self.first), .cancel(ActivityEvent.systemEnd, Self.first),
        .schedule(ActivityEvent.dismiss, Self.first, at: nine + .hours(5)),
      ] as Expected)
    #expect(activities.records[0].ending == .app)
  }

  @Test("a priority-5 update asks for its delivery; a newer one cancels it and asks for its own")
  func priorityFive() throws {
    let kind = LiveActivityConfiguration(id: "order", priority: 5, duration: try Self.every(36_000))
    let system = LiveActivitySystemConfiguration(lowPriorityDelay: try Self.every(45))
    var activities = LiveActivitiesRecordingTests.activities([kind], system: system)
    let noon = SimTime.zero + .hours(12)
    var timers = TimerLog(now: noon)
    var log = Recording()
    activities.startActivity(ActivityKindID(0), appInForeground: true, &timers, &log)
    _ = timers.take()
    activities.update(ActivityID(0), poweredOff: false, &timers, &log)
    #expect(
      timers.take() == [.schedule(ActivityEvent.delivery, Self.first, at: noon + SimDuration(seconds: 45))] as Expected)
    timers.now = noon + SimDuration(seconds: 10)
    activities.update(ActivityID(0), poweredOff: false, &timers, &log)
    #expect(
      timers.take() == [
        .cancel(ActivityEvent.delivery, Self.first),
        .schedule(ActivityEvent.delivery, Self.first, at: noon + SimDuration(seconds: 55)),
      ] as Expected)
    timers.now = noon + SimDuration(seconds: 55)
    activities.handle(.delivery, target: Self.first, poweredOff: false, &timers, &log)
    #expect(timers.take().isEmpty)
    #expect(log.pushes.map(\.counter) == [.sent, .sent, .superseded, .delivered])
  }

  @Test("a throttled final push stops the updates and asks for its retry one update interval later")
  func throttledFinalPush() throws {
    let kind = LiveActivityConfiguration(
      id: "delivery", updateInterval: try Self.every(600), duration: try Self.every(3_600), end: .push)
    var activities = LiveActivitiesRecordingTests.activities(
      [kind], system: LiveActivitySystemConfiguration(budgetPerHour: 0))
    let nine = SimTime.zero + .hours(9)
    var timers = TimerLog(now: nine)
    var log = Recording()
    activities.startActivity(ActivityKindID(0), appInForeground: true, &timers, &log)
    _ = timers.take()
    timers.now = nine + .hours(1)
    activities.handle(.end, target: Self.first, poweredOff: false, &timers, &log)
    #expect(
      timers.take() == [
        .cancel(ActivityEvent.update, Self.first),
        .schedule(ActivityEvent.end, Self.first, at: nine + .hours(1) + .minutes(10)),
      ] as Expected)
    #expect(activities.records[0].updatesThrottled == 1 && activities.records[0].endTime == nil)
  }
}
