import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

@Suite("Memory ceilings and time limits")
struct BuildFailureTests {
  /// Debug mode and `after 30m`: every request is granted at once, so every request builds.
  static func debugWidget(memory: Distribution, cpu: Distribution = try! .constant(0.2), fetch: Double = 1)
    -> ScenarioConfiguration
  {
    var widget = ModelFixtures.widget("heavy", policy: .after(.minutes(30)))
    widget.build = BuildConfiguration(cpuSeconds: cpu, fetchProbability: fetch, memoryBytes: memory)
    var budget = BudgetConfiguration()
    budget.debug = true
    return ModelFixtures.quiet([widget], days: 3, budget: budget)
  }

  @Test("memory always above the ceiling: no successful build, every request jetsam")
  func alwaysAboveCeiling() throws {
    let configuration = BuildFailureTests.debugWidget(memory: try .uniform(low: 40e6, high: 60e6))
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let requests = result.total(instance: 0)
    #expect(requests > 100)
    #expect(result.total(instance: 0, outcome: .jetsam) == requests)
    #expect(ReloadOutcome.allCases.filter(\.isReload).allSatisfy { result.total(instance: 0, outcome: $0) == 0 })
    #expect(result.builds[0] == requests)
    // The widget-added build failed too, so no view ever found content.
    #expect(result.staleness[0].placeholderViews == result.staleness[0].views)
  }

  @Test("memory always below the ceiling: zero jetsam")
  func alwaysBelowCeiling() throws {
    let configuration = BuildFailureTests.debugWidget(memory: try .uniform(low: 1e6, high: 31e6))
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.total(instance: 0, outcome: .jetsam) == 0)
    #expect(result.total(instance: 0, outcome: .grantedBudget) > 100)
  }

  @Test("a build at exactly the ceiling survives; one byte more is killed")
  func exactlyTheCeiling() throws {
    let ceiling = SystemConfiguration().memoryCeilingBytes
    #expect(ceiling == 31_457_280)
    let at = ScenarioRunner.runReplication(
      BuildFailureTests.debugWidget(memory: try .constant(ceiling)), replication: 0)
    #expect(at.total(instance: 0, outcome: .jetsam) == 0)
    let above = ScenarioRunner.runReplication(
      BuildFailureTests.debugWidget(memory: try .constant(ceiling + 1)), replication: 0)
    #expect(above.total(instance: 0, outcome: .jetsam) == above.total(instance: 0))
  }

  @Test("timeline entries raise peak memory: base + (entries - 1) x per-entry")
  func entriesRaiseMemory() throws {
    var configuration = BuildFailureTests.debugWidget(memory: try .constant(25e6))
    configuration.widgets[0].timeline.entries = 10
    configuration.widgets[0].build.memoryPerEntryBytes = 0.5e6  // 25 + 9 * 0.5 = 29.5 MB: survives
    #expect(ScenarioRunner.runReplication(configuration, replication: 0).total(instance: 0, outcome: .jetsam) == 0)
    configuration.widgets[0].timeline.entries = 15  // 25 + 14 * 0.5 = 32 MB > 31.46 MB: killed
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    #expect(result.total(instance: 0, outcome: .jetsam) == result.total(instance: 0))
  }

  /// Builds killed about half the time, every jetsam leaving the extension stuck, three app opens a day.
  static func alwaysStuck() throws -> ScenarioConfiguration {
    var configuration = BuildFailureTests.debugWidget(memory: try .uniform(low: 20e6, high: 40e6))
    configuration.system.jetsamStuckProbability = 1
    configuration.user.appOpensPerDay = 3
    return configuration
  }

  @Test("a stuck extension fails without building until the app is opened")
  func stuckUntilAppLaunch() throws {
    let result = ScenarioRunner.runReplication(try BuildFailureTests.alwaysStuck(), replication: 0, trace: true)
    #expect(result.total(instance: 0, outcome: .stuck) > 0)
    // Every jetsam is followed, until the next app open, only by stuck requests: no build runs in between.
    var stuck = false
    for record in result.trace ?? [] where record.outcome != .stuck {
      if stuck { #expect(record.cause == .appForeground, "a \(record.cause) build ran while stuck") }
      stuck = record.outcome == .jetsam
    }
  }

  @Test("while stuck the policy's reload ends as stuck and is not rescheduled until the app is opened")
  func stuckStopsThePolicy() throws {
    let result = ScenarioRunner.runReplication(try BuildFailureTests.alwaysStuck(), replication: 0, trace: true)
    let trace = result.trace ?? []
    #expect(trace.contains { $0.cause == .policy && $0.outcome == .stuck })
    // After a stuck outcome nothing builds until the app is opened (an `app_foreground` build, which may
    // itself be killed: WidgetKit then keeps the old schedule once more), and no policy request comes.
    var stuck = false
    var recovered = false
    var policyAfterRecovery = 0
    for record in trace {
      if stuck {
        #expect(record.cause != .policy, "a policy request at \(record.time) while stuck")
      }
      if record.outcome == .stuck {
        stuck = true
      } else if record.outcome.didBuild {
        #expect(!stuck || record.cause == .appForeground)
        if stuck && record.outcome.isReload { recovered = true }
        stuck = false
      }
      // Only policy reloads after a recovery from a stuck spell count.
      if recovered && record.cause == .policy && record.outcome.isReload { policyAfterRecovery += 1 }
    }
    #expect(
      trace.contains { $0.cause == .appForeground && $0.outcome.isReload }
        && policyAfterRecovery > 0, "the schedule resumes after a successful build")
  }

  @Test("a build past the time limit shows the placeholder, counted at the next view, until a build succeeds")
  func timeLimit() throws {
    // CPU 3 s or 8 s with equal odds against the 5 s limit.
    let configuration = BuildFailureTests.debugWidget(
      memory: try .constant(10e6), cpu: try .empirical(values: [3, 8]), fetch: 0)
    let result = ScenarioRunner.runReplication(configuration, replication: 0, trace: true)
    let timeouts = result.total(instance: 0, outcome: .timeout)
    #expect(timeouts > 30)
    #expect(result.total(instance: 0, outcome: .grantedBudget) > 30)
    #expect(result.staleness[0].placeholderViews > 0)
    #expect(result.staleness[0].placeholderViews < result.staleness[0].views)

    // Always too slow: every view finds the placeholder.
    let slow = ScenarioRunner.runReplication(
      BuildFailureTests.debugWidget(memory: try .constant(10e6), cpu: try .constant(6), fetch: 0), replication: 0)
    #expect(slow.total(instance: 0, outcome: .timeout) == slow.total(instance: 0))
    #expect(slow.staleness[0].views > 0)
    #expect(slow.staleness[0].placeholderViews == slow.staleness[0].views)
  }

  @Test("fetch time counts toward the time limit: latency + radio promotion + bytes x 8 / throughput")
  func fetchTime() throws {
    var configuration = BuildFailureTests.debugWidget(memory: try .constant(10e6), cpu: try .constant(1))
    configuration.widgets[0].build.fetchBytes = try .constant(5_000_000)  // 40 Mbit
    configuration.system.network = NetworkConfiguration(latencySeconds: 0.1)
    configuration.device.network = NetworkSelection(defaultNetwork: .wifi)
    // Wi-Fi at 10 Mbit/s: 1 s CPU + 0.1 s + (0.079 s promotion when idle) + 4 s > 5 s.
    configuration.device.radios.wifi.throughputBitsPerSecond = 10e6
    #expect(
      ScenarioRunner.runReplication(configuration, replication: 0).total(instance: 0, outcome: .grantedBudget) == 0)
    configuration.device.radios.wifi.throughputBitsPerSecond = 20e6
    #expect(ScenarioRunner.runReplication(configuration, replication: 0).total(instance: 0, outcome: .timeout) == 0)
  }
}
