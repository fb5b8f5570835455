import Testing

@testable import SimulationEngine

/// Records every event it handles; optionally schedules follow-ups or stops.
struct RecordingHandler: EventHandler {
  var log: [(time: Int64, target: UInt32)] = []
  /// Targets that, when handled, schedule target + 100 at the same time.
  var spawnAtSameTime: Set<UInt32> = []
  var stopAtTarget: UInt32?

  mutating func handle(_ event: Event, scheduler: inout Scheduler) {
    expectTrue(scheduler.now == event.time)
    log.append((event.time.microseconds, event.target))
    if spawnAtSameTime.contains(event.target) {
      scheduler.schedule(after: .zero, kind: event.kind, target: event.target + 100)
    }
    if event.target == stopAtTarget { scheduler.stop() }
  }
}

@Suite("Scheduler")
struct SchedulerTests {
  @Test("run(until:) is half-open: an event exactly at the end runs in the next call, and the clock lands on the end")
  func runUntilBoundary() {
    var scheduler = Scheduler()
    let kind = EventKind(rawValue: 1)
    scheduler.schedule(at: SimTime(microseconds: 999), kind: kind, target: 1)
    scheduler.schedule(at: SimTime(microseconds: 1_000), kind: kind, target: 2)
    scheduler.schedule(at: SimTime(microseconds: 1_001), kind: kind, target: 3)
    var handler = RecordingHandler()

    expectTrue(scheduler.run(until: SimTime(microseconds: 1_000), handler: &handler) == .reachedEnd)
    #expect(handler.log.map(\.target) == [1])
    expectTrue(scheduler.now == SimTime(microseconds: 1_000))
    expectTrue(scheduler.pendingCount == 2)

    expectTrue(scheduler.run(until: SimTime(microseconds: 1_000), handler: &handler) == .reachedEnd)
    #expect(handler.log.map(\.target) == [1], "an empty interval runs nothing")

    expectTrue(scheduler.run(until: SimTime(microseconds: 1_001), handler: &handler) == .reachedEnd)
    #expect(handler.log.map(\.target) == [1, 2])

    expectTrue(scheduler.run(until: SimTime(microseconds: 5_000), handler: &handler) == .reachedEnd)
    #expect(handler.log.map(\.target) == [1, 2, 3])
    expectTrue(scheduler.now == SimTime(microseconds: 5_000), "time passes to the end even with no events left")
    expectTrue(scheduler.handledEventCount == 3)
  }

  @Test("events scheduled at the current time run after those already scheduled for it")
  func sameTimeEventsRunInSchedulingOrder() {
    var scheduler = Scheduler()
    let kind = EventKind(rawValue: 1)
    for target in UInt32(1)...3 {
      scheduler.schedule(at: SimTime(microseconds: 50), kind: kind, target: target)
    }
    var handler = RecordingHandler(spawnAtSameTime: [1, 3])
    _ = scheduler.run(until: SimTime(microseconds: 51), handler: &handler)
    #expect(handler.log.map(\.target) == [1, 2, 3, 101, 103])
    #expect(handler.log.allSatisfy { $0.time == 50 })
  }

  @Test("stop() returns after the current event, leaving the clock there and the rest pending")
  func stop() {
    var scheduler = Scheduler()
    let kind = EventKind(rawValue: 1)
    for target in UInt32(1)...4 {
      scheduler.schedule(at: SimTime(microseconds: Int64(target) * 10), kind: kind, target: target)
    }
    var handler = RecordingHandler(stopAtTarget: 2)
    expectTrue(scheduler.run(until: SimTime(microseconds: 100), handler: &handler) == .stopped)
    expectTrue(scheduler.now == SimTime(microseconds: 20))
    expectTrue(scheduler.pendingCount == 2)
    handler.stopAtTarget = nil
    expectTrue(scheduler.run(until: SimTime(microseconds: 100), handler: &handler) == .reachedEnd)
    #expect(handler.log.map(\.target) == [1, 2, 3, 4])
  }

  @Test("cancel and supersede through the scheduler; step runs one event")
  func cancelSupersedeStep() {
    var scheduler = Scheduler(start: SimTime(microseconds: 100))
    let kind = EventKind(rawValue: 1)
    let pending = scheduler.schedule(after: .seconds(15 * 60), kind: kind, target: 1)
    let replaced = scheduler.supersede(pending, at: SimTime(microseconds: 200), kind: kind, target: 1)
    let doomed = scheduler.schedule(after: .microseconds(50), kind: kind, target: 2)
    expectTrue(scheduler.cancel(doomed))
    expectTrue(!scheduler.isPending(pending))
    var handler = RecordingHandler()
    expectTrue(scheduler.step(handler: &handler)?.target == 1)
    expectTrue(scheduler.now == SimTime(microseconds: 200))
    expectTrue(!scheduler.isPending(replaced))
    expectTrue(scheduler.step(handler: &handler) == nil)
  }
}

@Suite("Simulated time")
struct SimTimeTests {
  @Test("durations convert and print in their largest whole unit")
  func durations() {
    #expect(SimDuration.minutes(15).microseconds == 900_000_000)
    #expect(SimDuration.days(30).microseconds == 2_592_000_000_000)
    #expect(SimDuration(seconds: 0.25) == .milliseconds(250))
    #expect(SimDuration(seconds: 1e-7) == .zero)
    #expect(SimDuration(seconds: .infinity) == .longest)
    #expect(SimDuration(seconds: -1e300) == SimDuration(microseconds: -SimDuration.longest.microseconds))
    #expect(SimDuration(seconds: .nan) == .zero)
    #expect(SimDuration.hours(2).description == "2h")
    #expect(SimDuration.seconds(90).description == "90s")
    #expect(SimDuration.microseconds(1_500).description == "1500us")
    #expect((SimTime.zero + .days(1) - SimTime.zero) == .hours(24))
  }
}
