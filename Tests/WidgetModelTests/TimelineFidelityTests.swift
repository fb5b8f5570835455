import Fleets
import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// The timeline and budget rules of the fidelity issue, each pinned to an exact figure.
@Suite("Timeline dates and the default budget")
struct TimelineFidelityTests {
  static func debugBudget() -> BudgetConfiguration {
    var budget = BudgetConfiguration()
    budget.debug = true
    return budget
  }

  /// Times (µs since the start) of the instance's reloads that ran, of one cause or all.
  static func reloadTimes(_ result: ReplicationResult, cause: ReloadCause? = nil) -> [Int64] {
    (result.trace ?? []).filter { $0.outcome.isReload && (cause == nil || $0.cause == cause) }.map(\.time.microseconds)
  }

  @Test(
    "the default budget (rolling_24h, 40-70): a widget asking every 5 minutes gets at most 70 budgeted reloads in any 24 h, day 0 included"
  )
  func defaultBudgetHasNoBurst() {
    var configuration = ModelFixtures.quiet([ModelFixtures.widget("ticker", policy: .after(.minutes(5)))])
    configuration.system.deferWhileAsleep = false
    #expect(configuration.budget.refill == .rolling24h)
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let times = ModelFixtures.budgetedReloadTimes(result, instance: 0)
    #expect(ModelFixtures.busiestWindow(times, length: .days(1)) == 70, "the engaged allowance, exactly")
    let firstDay = times.filter { $0 < SimDuration.days(1).microseconds }.count
    #expect(firstDay <= 70 && firstDay >= 40, "day 0 granted \(firstDay)")

    // The bursty bucket stays available on request: it starts full, so day 0 holds about twice the allowance.
    configuration.budget.refill = .continuous
    let bursty = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let burstyFirstDay = ModelFixtures.budgetedReloadTimes(bursty, instance: 0).filter {
      $0 < SimDuration.days(1).microseconds
    }.count
    #expect(burstyFirstDay > 100, "continuous refill on day 0: \(burstyFirstDay)")
  }

  @Test(".atEnd reloads at the last entry's date: 4 entries 15 minutes apart, debug budget, no delay: 32 a day")
  func atEndAtLastEntry() {
    let widget = WidgetConfiguration(
      id: "w", kind: "K", timeline: TimelineConfiguration(policy: .atEnd, entries: 4, spacing: .minutes(15)))
    let configuration = ModelFixtures.quiet([widget], budget: Self.debugBudget())
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let times = Self.reloadTimes(result)
    #expect(times.count == 7 * 32)
    #expect(times.allSatisfy { $0 % SimDuration.minutes(45).microseconds == 0 })
  }

  @Test("a one-entry .atEnd timeline reloads when the system chooses: a constant 20-minute choice gives 72 a day")
  func atEndSingleEntry() throws {
    let widget = WidgetConfiguration(
      id: "w", kind: "K", timeline: TimelineConfiguration(policy: .atEnd, entries: 1))
    var configuration = ModelFixtures.quiet([widget], days: 2, budget: Self.debugBudget())
    configuration.system.atEndSingleEntryDelay = try .constant(1_200)
    let times = Self.reloadTimes(ScenarioRunner.runReplication(configuration, replication: 0, trace: true))
    #expect(times.count == 2 * 72)
  }

  @Test("align: clock puts every policy reload on the quarter hour, also after an off-grid exempt reload")
  func clockAligned() {
    var widget = WidgetConfiguration(
      id: "w", kind: "K",
      timeline: TimelineConfiguration(policy: .after(.minutes(15)), alignment: .clock))
    widget.tapsPerDay = 20  // exempt reloads at random moments: the next policy date is still on the grid
    let configuration = ModelFixtures.quiet([widget], budget: Self.debugBudget())
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let policy = Self.reloadTimes(result, cause: .policy)
    #expect(result.total(instance: 0, cause: .appIntent) > 50)
    #expect(policy.allSatisfy { $0 % SimDuration.minutes(15).microseconds == 0 })
    #expect(policy.count == 7 * 96 - 1, "every quarter hour but 00:00 of day 0, the widget-added reload")
  }

  @Test(
    "at: [\"09:30\"] reloads at 09:30 each day; active 09:30-16:00 with after 15m reloads 27 times a day, none outside")
  func listedTimesAndActiveWindow() {
    let open = TimeOfDay(hours: 9, minutes: 30)
    let listed = WidgetConfiguration(
      id: "open", kind: "K", timeline: TimelineConfiguration(policy: .after(.zero), times: [open]))
    let windowed = WidgetConfiguration(
      id: "market", kind: "M",
      timeline: TimelineConfiguration(
        policy: .after(.minutes(15)), activeWindow: SleepWindow(from: open, to: TimeOfDay(hours: 16, minutes: 0))))
    let configuration = ModelFixtures.quiet([listed, windowed], budget: Self.debugBudget())
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let trace = (result.trace ?? []).filter { $0.cause == .policy }
    let atOpen = trace.filter { $0.instance.index == 0 }.map { $0.time.microseconds }
    #expect(atOpen == (0..<7).map { Int64($0) * 86_400_000_000 + open.sinceMidnight.microseconds })
    let market = trace.filter { $0.instance.index == 1 }.map { $0.time.microseconds % 86_400_000_000 }
    #expect(market.count == 7 * 27)
    #expect(market.allSatisfy { $0 >= open.sinceMidnight.microseconds && $0 <= SimDuration.hours(16).microseconds })
  }

  @Test("a fleet in one time zone aligned to the clock fetches in the quarter-hour minutes; unaligned, taps scatter it")
  func fleetSynchronises() {
    /// Share of the fleet's fetches in UTC minutes that are multiples of 15.
    func quarterHourShare(_ alignment: TimelineAlignment) -> Double {
      var widget = WidgetConfiguration(
        id: "w", kind: "K", timeline: TimelineConfiguration(policy: .after(.minutes(15)), alignment: alignment))
      widget.tapsPerDay = 2  // an exempt reload at a random moment: an unaligned chain then runs off the grid
      var configuration = ModelFixtures.quiet([widget], days: 2, budget: Self.debugBudget())
      configuration.fleet.devices = 30
      let load = FleetRunner.run(configuration, replication: 0, jobs: 1).result.serverLoad
      var onGrid: Int64 = 0
      for (slot, fetches) in load.fetches.enumerated() where (slot + ServerLoad.firstMinute) % 15 == 0 {
        onGrid += fetches
      }
      return Double(onGrid) / Double(load.fetches.reduce(0, +))
    }
    // Aligned: every policy fetch (96 a day) is on the grid; only the taps' own fetches (about 2 a day) are not.
    #expect(quarterHourShare(.clock) > 0.95)
    #expect(quarterHourShare(.none) < 0.6, "unaligned chains leave the grid after the first tap")
  }

  @Test("the default memory per entry (25 KB): 48 entries on a 30 MB base survive the 30 MiB ceiling, 60 do not")
  func memoryPerEntry() throws {
    #expect(BuildConfiguration().memoryPerEntryBytes == 25_000)
    func jetsamShare(entries: Int) throws -> Double {
      var widget = WidgetConfiguration(
        id: "w", kind: "K", timeline: TimelineConfiguration(policy: .after(.minutes(30)), entries: entries))
      widget.build.memoryBytes = try .constant(30e6)
      let result = ScenarioRunner.runReplication(
        ModelFixtures.quiet([widget], days: 1, budget: Self.debugBudget()), replication: 0)
      return Double(result.total(instance: 0, outcome: .jetsam)) / Double(result.total(instance: 0))
    }
    #expect(try jetsamShare(entries: 48) == 0)  // 30 MB + 47 x 25 KB = 31.175 MB < 31.457 MB
    #expect(try jetsamShare(entries: 60) == 1)  // 30 MB + 59 x 25 KB = 31.475 MB > 31.457 MB
  }
}
