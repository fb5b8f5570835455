import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

@Suite("WidgetKit pushes")
struct PushTests {
  static func pushing(changesPerHour: Double, delay: Distribution, perHour: Double = 5) -> ScenarioConfiguration {
    var configuration = ModelFixtures.quiet([
      WidgetConfiguration(
        id: "weather", kind: "Weather", timeline: TimelineConfiguration(policy: .never),
        data: DataConfiguration(changes: HourlyRate(perHour: changesPerHour), pushes: [.widget])),
      ModelFixtures.widget("other", kind: "Other", policy: .never),
    ])
    configuration.system.widgetPush = WidgetPushConfiguration(perHour: perHour, perDay: 1_000, delay: delay)
    return configuration
  }

  @Test("at most one push pending per topic: every push sent is delivered, superseded or throttled, bar one")
  func onePendingPerTopic() throws {
    let configuration = PushTests.pushing(changesPerHour: 12, delay: try .exponential(mean: 600))
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let sent = result.pushTotal(target: 0, counter: .sent)
    let settled = [PushCounter.delivered, .superseded, .throttled].map { result.pushTotal(target: 0, counter: $0) }
    #expect(sent > 500)
    #expect(settled[1] > 100, "a 10-minute mean delay against 5-minute changes must supersede")
    #expect(sent - settled.reduce(0, +) <= 1, "more than one push was pending at the end")
  }

  @Test(
    "deliveries never exceed the hourly push budget; each reloads the push-enabled widgets (budgeted), or every widget with reloads: all"
  )
  func budgetAndReload() throws {
    var configuration = PushTests.pushing(changesPerHour: 20, delay: try .constant(1), perHour: 5)
    configuration.system.widgetPush.waitWhileAsleep = false
    #expect(configuration.widgets.map(\.pushHandler) == [true, false], "on_change: push implies a push handler")
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let delivered = result.pushTotal(target: 0, counter: .delivered)
    #expect(result.pushTotal(target: 0, counter: .throttled) > 0)
    for day in 0..<result.days {
      for hour in 0..<24 {
        #expect(result.pushCount(day: day, hour: hour, target: 0, priority: 10, counter: .delivered) <= 5)
      }
    }
    #expect(result.total(instance: 0, cause: .push) == delivered)
    #expect(result.total(instance: 1, cause: .push) == 0, "a widget without a push handler is not reloaded")
    configuration.system.widgetPush.reloads = .all
    let old = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(old.pushTotal(target: 0, counter: .delivered) == delivered, "the same pushes either way")
    for instance in 0..<2 {
      #expect(old.total(instance: instance, cause: .push) == delivered)
    }
  }

  @Test("pushes wait while the user sleeps")
  func waitWhileAsleep() throws {
    let configuration = PushTests.pushing(changesPerHour: 4, delay: try .constant(30))
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let sleep = configuration.user.sleep
    for record in result.trace ?? [] where record.cause == .push {
      #expect(!sleep.contains(record.time))
    }
    #expect(result.pushTotal(target: 0, counter: .delivered) > 0)
  }
}
