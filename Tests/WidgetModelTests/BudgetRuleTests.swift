import SimulationEngine
import Statistics
import Testing

@testable import Results
@testable import WidgetModel

@Suite("Refresh rules pinned to closed forms")
struct BudgetRuleTests {
  @Test("debug mode, after 30m, zero delay: exactly 48 policy reloads a day")
  func debugAfterThirtyMinutes() {
    var budget = BudgetConfiguration()
    budget.debug = true
    let configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("clock", policy: .after(.minutes(30)))], budget: budget)
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    for day in 0..<configuration.days {
      var policy = 0
      var all = 0
      for hour in 0..<24 {
        for outcome in ReloadOutcome.allCases where outcome.isReload {
          policy += result.reloadCount(day: day, hour: hour, instance: 0, cause: .policy, outcome: outcome)
          for cause in ReloadCause.allCases {
            all += result.reloadCount(day: day, hour: hour, instance: 0, cause: cause, outcome: outcome)
          }
        }
      }
      // Day 0 starts with the widget-added reload at 00:00, so its policy reloads run 00:30 ... 23:30.
      #expect(policy == (day == 0 ? 47 : 48), "day \(day)")
      #expect(all == 48, "day \(day)")
    }
    #expect(result.total(instance: 0, outcome: .coalesced) == 0)
  }

  @Test("rolling_24h with min = max = 40 and after 5m: no 24 h window holds more than 40 budgeted reloads")
  func rollingWindowNeverExceedsAllowance() {
    var budget = BudgetConfiguration(minPerDay: 40, maxPerDay: 40)
    budget.refill = .rolling24h
    let configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("ticker", policy: .after(.minutes(5)))], budget: budget)
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let times = ModelFixtures.budgetedReloadTimes(result, instance: 0)
    #expect(ModelFixtures.busiestWindow(times, length: .days(1)) == 40)
    // The demand (12 an hour while awake) is far above 40 a day: the rest was withheld or coalesced.
    #expect(result.total(instance: 0, cause: .policy, outcome: .withheldGranted) > 0)
    #expect(result.total(instance: 0, outcome: .coalesced) == 0, "a policy chain has one request in flight")
    for day in 0..<configuration.days {
      #expect(result.budgetExhausted(day: day, instance: 0))
    }
  }

  @Test("continuous refill: a window of length T never holds more than A + A T / 24 h; the long-run rate is A a day")
  func continuousBucketBound() {
    let allowance = 40.0
    var budget = BudgetConfiguration(minPerDay: allowance, maxPerDay: allowance)
    budget.refill = .continuous
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("ticker", policy: .after(.minutes(5)))], days: 14, budget: budget)
    configuration.system.deferWhileAsleep = false  // demand around the clock: the bucket is always drained
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let times = ModelFixtures.budgetedReloadTimes(result, instance: 0)
    for hours in [1, 6, 24, 72] {
      let bound = allowance + allowance * Double(hours) / 24
      #expect(Double(ModelFixtures.busiestWindow(times, length: .hours(Int64(hours)))) <= bound + 1e-9, "\(hours) h")
    }
    // A full bucket at the start, then exactly the refill: 40 + 40 per day, to within one token.
    let total = Double(times.count)
    #expect(abs(total - (allowance + allowance * 14)) <= 1, "total \(total)")
  }

  @Test("daily refill: no calendar day holds more than the allowance")
  func dailyReset() {
    var budget = BudgetConfiguration(minPerDay: 40, maxPerDay: 40)
    budget.refill = .daily
    let configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("ticker", policy: .after(.minutes(5)))], budget: budget)
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let times = ModelFixtures.budgetedReloadTimes(result, instance: 0)
    let day = SimDuration.days(1).microseconds
    for index in 0..<configuration.days {
      let count = times.filter { $0 / day == Int64(index) }.count
      #expect(count == 40, "day \(index)")
    }
  }

  @Test("never with no triggers: zero reloads, and every view finds the placeholder")
  func neverWithoutTriggers() {
    var configuration = ModelFixtures.quiet([ModelFixtures.widget("static", policy: .never)])
    configuration.system.widgetAddedReload = false
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.total(instance: 0) == 0)
    #expect(result.builds[0] == 0)
    #expect(result.staleness[0].views > 0)
    #expect(result.staleness[0].placeholderViews == result.staleness[0].views)
  }

  @Test("two instances keep separate budgets")
  func instancesHaveTheirOwnBudget() {
    var budget = BudgetConfiguration(minPerDay: 40, maxPerDay: 40)
    budget.refill = .rolling24h
    let configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("city", policy: .after(.minutes(5)), instances: 2)], budget: budget)
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let first = ModelFixtures.budgetedReloadTimes(result, instance: 0)
    let second = ModelFixtures.budgetedReloadTimes(result, instance: 1)
    // Each gets its full 40 in its busiest day: one's spending does not eat into the other's.
    #expect(ModelFixtures.busiestWindow(first, length: .days(1)) == 40)
    #expect(ModelFixtures.busiestWindow(second, length: .days(1)) == 40)
    #expect(ModelFixtures.busiestWindow((first + second).sorted(), length: .days(1)) > 40)
  }

  @Test("reloadTimelines(ofKind:) reloads every instance of the kind and no other widget")
  func reloadKindReachesEveryInstance() {
    let configuration = ModelFixtures.alwaysRunning([
      ModelFixtures.widget(
        "scores", kind: "Scores", policy: .never, instances: 3, changesPerHour: 1, onChange: .reloadKind),
      ModelFixtures.widget("news", kind: "News", policy: .never),
    ])
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let requests = (0..<3).map { result.total(instance: $0, cause: .appReload) }
    #expect(requests[0] > 50)
    #expect(requests[0] == requests[1] && requests[1] == requests[2])
    #expect(result.total(instance: 3, cause: .appReload) == 0)
  }

  @Test("reloadAllTimelines() reloads every widget of the app")
  func reloadAllReachesEveryWidget() {
    let configuration = ModelFixtures.alwaysRunning([
      ModelFixtures.widget("scores", kind: "Scores", policy: .never, changesPerHour: 1, onChange: .reloadAll),
      ModelFixtures.widget("news", kind: "News", policy: .never),
    ])
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.total(instance: 0, cause: .appReload) > 50)
    #expect(result.total(instance: 0, cause: .appReload) == result.total(instance: 1, cause: .appReload))
  }

  @Test("app opens at r a day give foreground reloads per day whose 95% CI covers r")
  func foregroundReloadsMatchAppOpens() throws {
    let rate = 6.0
    var configuration = ModelFixtures.quiet([ModelFixtures.widget("inbox", policy: .never)], days: 10)
    configuration.user.appOpensPerDay = rate
    var perDay = RunningStatistics()
    for replication in 0..<20 {
      let result = ScenarioRunner.runReplication(configuration, replication: replication)
      for day in 0..<configuration.days {
        var count = 0
        for hour in 0..<24 {
          count += result.reloadCount(day: day, hour: hour, instance: 0, cause: .appForeground, outcome: .grantedExempt)
        }
        perDay.add(Double(count))
      }
    }
    let interval = try #require(ConfidenceInterval(perDay))
    #expect(interval.contains(rate), "mean \(perDay.mean), CI [\(interval.low), \(interval.high)]")
  }

  @Test("exempt reloads spend no budget: an app opened 200 times a day with a 5-reload budget is never withheld")
  func exemptReloadsAreFree() {
    var configuration = ModelFixtures.quiet(
      [ModelFixtures.widget("inbox", policy: .never)], budget: BudgetConfiguration(minPerDay: 5, maxPerDay: 5))
    configuration.user.appOpensPerDay = 200
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.total(instance: 0, cause: .appForeground, outcome: .grantedExempt) > 1_000)
    #expect(result.total(instance: 0, outcome: .withheldGranted) == 0)
    #expect(result.budgetRemaining(day: 6, hour: 23, instance: 0) == 5)
  }

  @Test("the minimum interval spaces budgeted reloads of one instance")
  func minimumInterval() {
    var budget = BudgetConfiguration()
    budget.minInterval = .minutes(20)
    let configuration = ModelFixtures.alwaysRunning(
      [ModelFixtures.widget("feed", policy: .never, changesPerHour: 10, onChange: .reloadKind)], budget: budget)
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let times = ModelFixtures.budgetedReloadTimes(result, instance: 0)
    #expect(times.count > 50)
    for (earlier, later) in zip(times, times.dropFirst()) {
      #expect(later - earlier >= SimDuration.minutes(20).microseconds)
    }
    #expect(result.total(instance: 0, outcome: .deferredGranted) > 0)
  }

  @Test("a rarely viewed widget gets the minimum allowance, a frequently viewed one the maximum")
  func engagementScalesTheAllowance() {
    var budget = BudgetConfiguration(minPerDay: 10, maxPerDay: 70)
    budget.refill = .rolling24h
    var configuration = ModelFixtures.quiet(
      [
        ModelFixtures.widget("front", policy: .after(.minutes(5))),
        ModelFixtures.widget("lock", policy: .after(.minutes(5)), placement: .lockScreen),
      ], budget: budget)
    configuration.user.lockScreenViews = .zero
    configuration.user.homeScreenViews = HourlyRate(perHour: 10)
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    #expect(ModelFixtures.busiestWindow(ModelFixtures.budgetedReloadTimes(result, instance: 0), length: .days(1)) == 70)
    #expect(ModelFixtures.busiestWindow(ModelFixtures.budgetedReloadTimes(result, instance: 1), length: .days(1)) == 10)
  }
}
