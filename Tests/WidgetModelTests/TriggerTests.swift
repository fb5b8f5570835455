import SimulationEngine
import Statistics
import Testing

@testable import Results
@testable import WidgetModel

@Suite("Exempt triggers and system behaviour")
struct TriggerTests {
  @Test("StandBy refreshes every 15 minutes through the night, exempt, and only StandBy widgets")
  func standbyRefreshes() {
    var configuration = ModelFixtures.quiet([
      WidgetConfiguration(
        id: "nightstand", kind: "Clock", family: .systemSmall, placement: .standby,
        timeline: TimelineConfiguration(policy: .never)),
      ModelFixtures.widget("front", policy: .never),
    ])
    configuration.system.standbyRefreshInterval = .minutes(15)
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    // Sleep 23:30-07:00 is 7.5 h: a refresh at 23:30 and every 15 min up to 06:45, 30 a night. Day 0 starts
    // asleep at 00:00 (refreshes 00:00 ... 06:45: 28); the last night (day 6, 23:30-24:00) has 2.
    let refreshes = result.total(instance: 0, cause: .standby, outcome: .grantedExempt)
    #expect(refreshes == 28 + 6 * 30 + 2)
    #expect(result.total(instance: 1, cause: .standby) == 0)
    let budgeted: [ReloadOutcome] = [.grantedBudget, .withheldGranted, .deferredGranted]
    #expect(budgeted.allSatisfy { result.total(instance: 0, outcome: $0) == 0 }, "exempt: no budget spent")
  }

  @Test("a widget on another page gets a catch-up reload when seen with a request waiting")
  func catchUpOnOtherPage() {
    var budget = BudgetConfiguration(minPerDay: 2, maxPerDay: 2)
    budget.refill = .rolling24h
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("far", policy: .after(.minutes(30)), placement: .homeOtherPage)], budget: budget)
    configuration.user.otherPageProbability = 0.3
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let catchUps = result.total(instance: 0, cause: .catchUp, outcome: .grantedExempt)
    #expect(catchUps > 20)
    // Each catch-up satisfied the waiting policy request, which counts as coalesced.
    #expect(result.total(instance: 0, cause: .policy, outcome: .coalesced) >= catchUps - 1)
  }

  @Test("App Intent taps reload the tapped instance at once, about taps-per-day times a day")
  func taps() throws {
    var widget = ModelFixtures.widget("toggle", policy: .never, instances: 2)
    widget.tapsPerDay = 5
    let configuration = ModelFixtures.quiet([widget], days: 20)
    var perDay = RunningStatistics()
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    for instance in 0..<2 {
      for day in 0..<configuration.days {
        var count = 0
        for hour in 0..<24 {
          count += result.reloadCount(
            day: day, hour: hour, instance: instance, cause: .appIntent, outcome: .grantedExempt)
        }
        perDay.add(Double(count))
      }
    }
    // Poisson(5) per instance-day over 40 instance-days: mean within 4 standard errors (sd sqrt(5/40)).
    let bound: Double = 4 * (5.0 / 40).squareRoot()
    #expect(abs(perDay.mean - 5) < bound, "mean \(perDay.mean)")
  }

  @Test("the learning period multiplies the allowance for its first days")
  func learningPeriod() {
    var budget = BudgetConfiguration(minPerDay: 40, maxPerDay: 40)
    budget.refill = .daily
    budget.learningDays = 2
    budget.learningFactor = 1.5
    let configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("ticker", policy: .after(.minutes(5)))], days: 4, budget: budget)
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let day = SimDuration.days(1).microseconds
    let perDay = (0..<4).map { index in
      ModelFixtures.budgetedReloadTimes(result, instance: 0).filter { $0 / day == Int64(index) }.count
    }
    #expect(perDay == [60, 60, 40, 40])
  }

  @Test("a coalescing window pulls other widgets' due policy reloads forward to run together")
  func coalescingWindow() {
    var configuration = ModelFixtures.quiet([
      ModelFixtures.widget("a", policy: .after(.minutes(30))),
      ModelFixtures.widget("b", policy: .after(.minutes(31))),
    ])
    configuration.system.coalesceWindow = .minutes(5)
    configuration.system.deferWhileAsleep = false
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let trace = result.trace ?? []
    let timesA = Set(trace.filter { $0.instance.index == 0 }.map(\.time))
    let timesB = trace.filter { $0.instance.index == 1 && $0.cause == .policy }.map(\.time)
    #expect(!timesB.isEmpty)
    #expect(timesB.allSatisfy { timesA.contains($0) }, "every policy reload of b ran with one of a")

    configuration.system.coalesceWindow = .zero
    let apart = ScenarioRunner.runReplication(configuration, replication: 0, trace: true).trace ?? []
    let apartA = Set(apart.filter { $0.instance.index == 0 }.map(\.time))
    #expect(apart.filter { $0.instance.index == 1 && $0.cause == .policy }.contains { !apartA.contains($0.time) })
  }

  @Test("budgeted requests made while the user sleeps wait until they wake")
  func deferredWhileAsleep() {
    let configuration = ModelFixtures.alwaysRunning([
      ModelFixtures.widget("feed", policy: .never, changesPerHour: 4, onChange: .reloadKind)
    ])
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let sleep = configuration.user.sleep
    for record in result.trace ?? [] where record.cause == .appReload {
      #expect(!sleep.contains(record.time), "a budgeted reload ran at \(record.time) while asleep")
    }
    #expect(result.total(instance: 0, cause: .appReload, outcome: .deferredGranted) >= 6)
  }

  @Test("audio sessions make the app's reloads exempt while they last")
  func audioSessions() {
    var configuration = ModelFixtures.quiet([
      ModelFixtures.widget("nowplaying", policy: .never, changesPerHour: 20, onChange: .reloadKind)
    ])
    configuration.user.audioSessionsPerDay = 3
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.total(instance: 0, cause: .audioSession, outcome: .grantedExempt) > 30)
    #expect(result.total(instance: 0, cause: .audioSession, outcome: .grantedBudget) == 0)
  }
}
