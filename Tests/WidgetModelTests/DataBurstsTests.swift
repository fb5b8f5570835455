import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// The data bursts driven input by input: a log of the timers they ask for stands in for the device's
/// scheduler.
@Suite("Data bursts, input by input")
struct DataBurstsTests {
  typealias Expected = [TimerLog.Entry]

  /// One kind with bursts of 3 updates 5 minutes apart, starting at 4 an hour from 08:00 to 20:00; one kind
  /// without changes of its own.
  static func bursts() throws -> DataBursts {
    let starts = ClockRate(windows: [(TimeOfDay(hours: 8, minutes: 0), TimeOfDay(hours: 20, minutes: 0), 4)])
    let orders = DataConfiguration(
      scheduled: ScheduledChanges(starts: starts, updates: 3, spacing: try .constant(300)))
    return DataBursts(
      kinds: [orders, DataConfiguration()], eventBursts: false,
      streams: { RandomStream(seed: StreamSeed(scenarioSeed: 9, stream: UInt64($0))) }, end: .zero + .days(2))
  }

  /// The time of `entry` if it schedules `event` for `target`.
  static func time(_ entry: TimerLog.Entry, _ event: DataEvent, _ target: UInt32) -> SimTime? {
    guard case .scheduled(let kind, let scheduled, let time) = entry, kind == event.eventKind, scheduled == target
    else { return nil }
    return time
  }

  @Test("a start asks for the next start and for the burst's further updates, the last one flagged")
  func burst() throws {
    var bursts = try Self.bursts()
    var timers = TimerLog()
    bursts.start(&timers)
    let started = timers.take()
    let first = try #require(started.count == 1 ? Self.time(started[0], .scheduledChange, 0) : nil)
    #expect(first >= .zero + .hours(8) && first < .zero + .hours(20))
    timers.now = first
    let slot = try #require(bursts.started(0, &timers))
    let asked = timers.take()
    #expect(asked.count == 3)
    #expect(try #require(Self.time(asked[0], .scheduledChange, 0)) > first)
    #expect(
      Array(asked.dropFirst()) == [
        .schedule(DataEvent.burstUpdate, UInt32(slot), at: first + .minutes(5)),
        .schedule(DataEvent.burstUpdate, UInt32(slot) | DataBursts.lastUpdateFlag, at: first + .minutes(10)),
      ] as Expected)
    #expect(bursts.isLive(KindID(0)))
    #expect(bursts.updated(target: UInt32(slot)).kind == 0 && bursts.isLive(KindID(0)))
    #expect(bursts.updated(target: UInt32(slot) | DataBursts.lastUpdateFlag).kind == 0 && !bursts.isLive(KindID(0)))
  }
}
