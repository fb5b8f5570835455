import SimulationEngine
import Testing

@testable import WidgetModel

/// Every random process draws from its own stream (common random numbers): changing one process's
/// parameter must not move another's draws.
@Suite("Stream discipline")
struct StreamDisciplineTests {
  /// A widget whose builds are killed about half the time (memory 20-40 MB against the 30 MiB ceiling),
  /// with app opens that un-stick it.
  static func jetsamScenario(stuckProbability: Double) throws -> ScenarioConfiguration {
    var configuration = ModelFixtures.quiet([ModelFixtures.widget("w", policy: .after(.minutes(20)))], days: 10)
    configuration.widgets[0].build.memoryBytes = try .uniform(low: 20e6, high: 40e6)
    configuration.user.appOpensPerDay = 3
    configuration.system.jetsamStuckProbability = stuckProbability
    return configuration
  }

  @Test("the jetsam-stuck draw has its own stream: a probability that never sticks changes nothing")
  func stuckDrawLeavesBuildsAlone() throws {
    // With p = 1e-300 every jetsam draws (and never sticks); with p = 0 none draws. Had the draw come from
    // the build stream, every build after the first jetsam would differ.
    let off = ScenarioRunner.runReplication(try Self.jetsamScenario(stuckProbability: 0), replication: 0)
    let drawing = ScenarioRunner.runReplication(try Self.jetsamScenario(stuckProbability: 1e-300), replication: 0)
    #expect(off.total(instance: 0, outcome: .jetsam) > 50, "the scenario kills builds")
    #expect(off.fingerprint == drawing.fingerprint)
    #expect(off.cpuSeconds == drawing.cpuSeconds && off.fetchBytes == drawing.fetchBytes)
    #expect(drawing.total(instance: 0, outcome: .stuck) == 0)
  }

  @Test("sticking changes the widget's reloads, never what the user does")
  func stuckLeavesTheUserAlone() throws {
    let rarely = ScenarioRunner.runReplication(try Self.jetsamScenario(stuckProbability: 0.1), replication: 0)
    let often = ScenarioRunner.runReplication(try Self.jetsamScenario(stuckProbability: 0.9), replication: 0)
    #expect(rarely.total(instance: 0, outcome: .stuck) < often.total(instance: 0, outcome: .stuck))
    #expect(rarely.staleness[0].views == often.staleness[0].views, "views come from the user's streams")
    #expect(
      rarely.total(instance: 0, cause: .appForeground) == often.total(instance: 0, cause: .appForeground),
      "app opens come from the user's streams")
  }
}
