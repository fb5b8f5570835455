import CGSL
import Fleets
import Results
import ScenarioFiles
import SimulationEngine
import TestSupport
import Testing
import WidgetModel

@testable import Reports

/// An example scenario from Scenarios/, with overrides.
func exampleScenario(_ name: String, overrides: [String] = []) throws -> ScenarioConfiguration {
  try ScenarioLoader.load(
    path: Repository.path("Scenarios/\(name).yaml"), overrides: overrides.map { try ScenarioOverride($0) }
  ).configuration
}

@Suite("Example scenarios")
struct ExampleScenarioTests {
  /// Hour of day of the first request that found the budget empty, per replication and day.
  static func exhaustionHours(_ result: ReplicationResult) -> [Int?] {
    (0..<result.days).map { day in
      (0..<24).first { hour in
        result.reloadCount(day: day, hour: hour, instance: 0, cause: .policy, outcome: .withheldGranted)
          + result.reloadCount(day: day, hour: hour, instance: 0, cause: .appReload, outcome: .withheldGranted)
          + result.reloadCount(day: day, hour: hour, instance: 0, cause: .policy, outcome: .withheldAtEnd)
          + result.reloadCount(day: day, hour: hour, instance: 0, cause: .appReload, outcome: .withheldAtEnd) > 0
      }
    }
  }

  @Test(
    "aggressive-5min with the bursty continuous refill: the budget runs dry before 18:00 on most days; then budgeted reloads fall to the refill rate while requests keep coming"
  )
  func aggressiveRunsDry() throws {
    let configuration = try exampleScenario("aggressive-5min", overrides: ["budget.refill=continuous"])
    var days = 0
    var dryBefore18 = 0
    for replication in 0..<configuration.replications {
      let result = ScenarioRunner.runReplication(configuration, replication: replication)
      for (day, hour) in ExampleScenarioTests.exhaustionHours(result).enumerated() {
        days += 1
        guard let hour, hour < 18 else { continue }
        dryBefore18 += 1
        // From 18:00 to bedtime (23:30): requests keep coming, but what is granted from budget stays at
        // the refill rate (70 a day: under 3 an hour) plus what accrued during exempt reloads.
        var requests = 0
        var budgeted = 0
        for later in 18..<23 {
          for cause in [ReloadCause.policy, .silentPush] {
            for outcome in ReloadOutcome.allCases {
              let count = result.reloadCount(day: day, hour: later, instance: 0, cause: cause, outcome: outcome)
              requests += count
              if [.grantedBudget, .withheldGranted, .deferredGranted].contains(outcome) { budgeted += count }
            }
          }
        }
        #expect(requests >= 5 * 3, "replication \(replication) day \(day): \(requests) requests 18:00-23:00")
        #expect(budgeted <= 5 * 3 + 2, "replication \(replication) day \(day): \(budgeted) budgeted 18:00-23:00")
      }
    }
    #expect(Double(dryBefore18) >= 0.8 * Double(days), "dry before 18:00 on \(dryBefore18) of \(days) days")
  }

  @Test("aggressive-5min (rolling_24h refill, the default): budgeted reloads stop outright before 18:00 on most days")
  func aggressiveRollingStops() throws {
    let configuration = try exampleScenario("aggressive-5min")
    var days = 0
    var stopped = 0
    for replication in 0..<configuration.replications {
      let result = ScenarioRunner.runReplication(configuration, replication: replication, trace: true)
      let day = SimDuration.days(1).microseconds
      for index in 1..<configuration.days {
        days += 1
        let budgeted = (result.trace ?? []).filter {
          $0.time.microseconds / day == Int64(index)
            && [.grantedBudget, .withheldGranted, .deferredGranted].contains($0.outcome)
        }
        let last = budgeted.map { Double($0.time.microseconds % day) / 3_600e6 }.max() ?? 0
        if last < 18 { stopped += 1 }
      }
    }
    #expect(Double(stopped) >= 0.8 * Double(days), "stopped before 18:00 on \(stopped) of \(days) days")
  }

  @Test("news-15min stays close to its budget's top: under 10% of its budgeted reloads ever waited for budget")
  func newsStaysWithinBudget() throws {
    let configuration = try exampleScenario("news-15min")
    let results = ScenarioRunner.run(configuration)
    for result in results {
      let waited = Double(result.total(instance: 0, outcome: .withheldGranted))
      let granted = Double(result.total(instance: 0, outcome: .grantedBudget))
      #expect(waited <= 0.1 * (waited + granted), "\(waited) of \(waited + granted) budgeted reloads waited")
      #expect(granted / Double(result.days) > 30)
    }
  }
}

@Suite("Example scenarios: pushes, Live Activities, memory")
struct FailureScenarioTests {
  @Test("delivery-live-activity: push.csv shows throttled priority-10 updates")
  func deliveryThrottled() throws {
    let configuration = try exampleScenario("delivery-live-activity")
    let directory = TestFiles.temporaryDirectory()
    let results = ScenarioRunner.run(configuration)
    let metadata = RunMetadata(
      widgetsimVersion: "test", scenarioFile: "delivery-live-activity.yaml", scenarioText: "", overrides: [],
      wallTimeSeconds: 0)
    try RunReports.write(
      configuration: configuration, results: results, metadata: metadata, to: directory, detail: true)
    let push = try TestFiles.read("\(directory)/push.csv").split(separator: "\n")
    #expect(push.first == "replication,day,hour,target,priority,sent,delivered,superseded,throttled,lost")
    var throttled = 0
    var delivered = 0
    for line in push.dropFirst() {
      let cells = line.split(separator: ",")
      guard cells[3] == "delivery", cells[4] == "10" else { continue }
      delivered += Int(cells[6]) ?? 0
      throttled += Int(cells[8]) ?? 0
      #expect((Int(cells[6]) ?? 0) <= 12, "at most 12 admitted in one clock hour: \(line)")
    }
    #expect(delivered > 0)
    #expect(throttled > delivered / 2, "throttling must be visible: \(throttled) throttled, \(delivered) delivered")
    let activities = try TestFiles.read("\(directory)/activities.csv").split(separator: "\n")
    #expect(activities.count > 1)
  }

  @Test("sports-broadcast: one server request per channel update whatever the fleet's size; deliveries per phone")
  func broadcastServerLoad() throws {
    func run(_ devices: Int) throws -> ReplicationResult {
      let configuration = try exampleScenario(
        "sports-broadcast", overrides: ["fleet.devices=\(devices)", "days=2", "replications=1"])
      return FleetRunner.run(configuration, replication: 0, jobs: 2).result
    }
    let small = try run(40)
    let large = try run(80)
    func requests(_ result: ReplicationResult, _ source: ServerSource) -> Int64 {
      (0..<result.serverLoad.minuteCount).reduce(0) { $0 + result.serverLoad.requests(slot: $1, source: source) }
    }
    #expect(requests(small, .broadcast) > 0)
    #expect(requests(small, .broadcast) == requests(large, .broadcast), "the channel's updates are the fleet's")
    // Push-to-start is the only per-device push: one per phone and day.
    #expect(requests(small, .activityPush) == 40 * 2 && requests(large, .activityPush) == 80 * 2)
    #expect(large.pushTotal(target: 1, counter: .delivered) > small.pushTotal(target: 1, counter: .delivered))
  }

  @Test("memory-heavy: the jetsam share matches P(memory > 30 MiB) from GSL's normal CDF")
  func memoryHeavyJetsamShare() throws {
    let configuration = try exampleScenario("memory-heavy")
    let ceiling = configuration.system.memoryCeilingBytes
    // memory: normal, mean 28 MB, sd 2 MB (one entry, so no per-entry memory).
    let probability = gsl_cdf_gaussian_Q(ceiling - 28e6, 2e6)
    var builds = 0
    var jetsams = 0
    for result in ScenarioRunner.run(configuration) {
      builds += result.builds[0]
      jetsams += result.total(instance: 0, outcome: .jetsam)
    }
    let share = Double(jetsams) / Double(builds)
    let standardError = (probability * (1 - probability) / Double(builds)).squareRoot()
    #expect(builds > 2_000)
    #expect(
      abs(share - probability) < 4 * standardError, "share \(share), expected \(probability) ± \(4 * standardError)")
  }
}

@Suite("Example scenarios: energy and battery")
struct EnergyScenarioTests {
  @Test("battery-low-power: Low Power Mode is reached every day and reloads fall after it")
  func lowPowerModeReached() throws {
    let configuration = try exampleScenario("battery-low-power")
    var before = 0
    var after = 0
    var days = 0
    for result in ScenarioRunner.run(configuration) {
      for day in 0..<result.days {
        guard let onset = (0..<24).first(where: { result.lowPowerMode[day * 24 + $0] }), onset >= 3, onset <= 21 else {
          continue
        }
        days += 1
        // Low Power Mode is decided at the end of hour `onset`: compare the two hours before it with the two after.
        func reloads(_ hours: ClosedRange<Int>) -> Int {
          var sum = 0
          for hour in hours {
            for instance in 0..<result.instanceCount {
              for cause in ReloadCause.allCases {
                for outcome in ReloadOutcome.allCases where outcome.isReload {
                  sum += result.reloadCount(day: day, hour: hour, instance: instance, cause: cause, outcome: outcome)
                }
              }
            }
          }
          return sum
        }
        before += reloads((onset - 2)...(onset - 1))
        after += reloads((onset + 1)...(onset + 2))
      }
    }
    #expect(days >= 4 * configuration.replications, "Low Power Mode on \(days) days")
    #expect(Double(after) < 0.85 * Double(before), "reloads before \(before), after \(after)")
  }

  @Test("cellular-commuter: LTE by day makes radio tails the bulk of the widgets' energy")
  func commuterTails() throws {
    let configuration = try exampleScenario("cellular-commuter")
    let result = ScenarioRunner.runReplication(configuration, replication: 0)
    let tails = (0..<2).reduce(0.0) { $0 + result.totalJoules(subject: $1, component: .radioTail) }
    let total = (0..<2).reduce(0.0) { $0 + result.totalJoules(subject: $1) }
    #expect(tails / total > 0.8)
    // On Wi-Fi all day the same widgets cost a small fraction of that.
    var wifi = configuration
    wifi.device.network = NetworkSelection(defaultNetwork: .wifi)
    let quiet = ScenarioRunner.runReplication(wifi, replication: 0)
    #expect((0..<2).reduce(0.0) { $0 + quiet.totalJoules(subject: $1) } < total / 10)
  }
}
