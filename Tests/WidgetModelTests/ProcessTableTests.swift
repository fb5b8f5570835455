import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// The process table driven input by input: a log of the firings it asks for stands in for the device's
/// scheduler.
@Suite("The process table, input by input")
struct ProcessTableTests {
  typealias Expected = [TimerLog.Entry]

  /// App opens at 2 an hour awake and none asleep; reboots never.
  static func table() -> ProcessTable {
    let stream = { (n: UInt64) in RandomStream(seed: StreamSeed(scenarioSeed: 5, stream: n)) }
    var table = ProcessTable([
      PoissonProcess(role: .appOpens, stream: stream(1)), PoissonProcess(role: .reboots, stream: stream(2)),
    ])
    var rates = Array(repeating: 0.0, count: 96)
    for hour in 0..<24 { rates[hour * 2] = 2 }
    table.tabulate(rates)
    return table
  }

  /// The one entry of `entries`, if it is a firing of `process`: its time.
  static func firing(_ entries: [TimerLog.Entry], of process: Int) -> SimTime? {
    guard entries.count == 1, case .scheduled(let kind, let target, let time) = entries[0],
      kind == ProcessEvent.fired.eventKind, target == UInt32(process)
    else { return nil }
    return time
  }

  @Test("a process with a rate asks for its next firing; a firing asks for the one after; a rate of 0 cancels")
  func firings() throws {
    var table = Self.table()
    let nine = SimTime.zero + .hours(9)
    var timers = TimerLog(now: nine)
    table.update(hour: 9, asleep: false, &timers)
    let first = try #require(Self.firing(timers.take(), of: 0))
    #expect(first > nine)
    // The same rate an hour later changes nothing.
    table.update(hour: 10, asleep: false, &timers)
    #expect(timers.take().isEmpty)
    timers.now = first
    #expect(table.fired(ProcessID(0), &timers) == .appOpens)
    let second = try #require(Self.firing(timers.take(), of: 0))
    #expect(second > first)
    table.update(hour: 23, asleep: true, &timers)
    #expect(timers.take() == [.cancel(ProcessEvent.fired, 0)] as Expected)
  }

  @Test("a deferred firing asks for nothing until its gate closes, then for its event at its own time")
  func deferredFirings() throws {
    var table = Self.table()
    table.allowDeferral(appIdle: true, noCatchUp: true) { $0 == .appOpens ? .whileAppIdle : .never }
    var timers = TimerLog(now: .zero + .hours(9))
    table.update(hour: 9, asleep: false, &timers)
    #expect(timers.take().isEmpty)
    let deferred = table.earliestDeferred
    #expect(deferred > timers.now && deferred < ProcessTable.noneDeferred)
    table.setGates(appIdle: false, noCatchUp: true, &timers)
    #expect(timers.take() == [.schedule(ProcessEvent.fired, 0, at: deferred)] as Expected)
    #expect(table.earliestDeferred == ProcessTable.noneDeferred)
  }

  @Test("a deferred firing is taken before a later event, and draws its next from its own time")
  func takeDeferred() throws {
    var table = Self.table()
    table.allowDeferral(appIdle: true, noCatchUp: true) { $0 == .appOpens ? .always : .never }
    var timers = TimerLog(now: .zero + .hours(9))
    table.update(hour: 9, asleep: false, &timers)
    let deferred = table.earliestDeferred
    #expect(table.takeDeferred(before: deferred, &timers) == nil)
    let taken = try #require(table.takeDeferred(before: deferred + .seconds(1), &timers))
    #expect(taken.0 == ProcessID(0) && taken.1 == deferred)
    #expect(table.earliestDeferred > deferred && timers.take().isEmpty)
  }
}
