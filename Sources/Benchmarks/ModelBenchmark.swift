import Results
import SimulationEngine
import WidgetModel

/// The refresh model's speed: events handled per second while simulating one device, on one core.
///
/// The scenario is fixed here in code (not read from a file) so the figure stays comparable across
/// versions: a news widget (`.after 15m`, app reloads on 2 changes an hour), a Lock Screen score widget
/// (`.never`, app reloads on changes) and a Smart Stack weather widget (`.atEnd`, 6 hourly entries), with
/// the default user (views, app opens) over 30 days.
public enum ModelBenchmark {
  public static let configuration: ScenarioConfiguration = {
    let widgets = [
      WidgetConfiguration(
        id: "headlines", kind: "NewsHeadlines", timeline: TimelineConfiguration(policy: .after(.minutes(15))),
        data: DataConfiguration(changes: HourlyRate(perHour: 2), onChange: .reloadKind)),
      WidgetConfiguration(
        id: "score", kind: "LiveScore", family: .accessoryRectangular, placement: .lockScreen,
        timeline: TimelineConfiguration(policy: .never),
        data: DataConfiguration(changes: HourlyRate(perHour: 1), onChange: .reloadKind)),
      WidgetConfiguration(
        id: "weather", kind: "Weather", family: .systemSmall, placement: .smartStack,
        timeline: TimelineConfiguration(policy: .atEnd, entries: 6, spacing: .hours(1)),
        data: DataConfiguration(changes: HourlyRate(perHour: 0.5))),
    ]
    return ScenarioConfiguration(name: "bench-model", days: 30, seed: 1, replications: 1, widgets: widgets)
  }()

  /// Events per second over at least `events` events (whole replications of `scenario`, by default the
  /// fixed scenario above), with the scenario's seed replaced by `seed`. Replications reuse their results'
  /// memory, as `run` and `sweep` do.
  public static func eventsPerSecond(
    events: Int, seed: UInt64 = 1, scenario: ScenarioConfiguration = configuration
  ) -> Double {
    perSecond(scenario, seed: seed, atLeast: events) { result, _ in Int(result.eventsHandled) }
  }

  /// Simulated device-days per second on one core over at least `days` days (whole replications of
  /// `scenario`, with its seed replaced by `seed`): the model's cost as users meet it, reports aside.
  public static func deviceDaysPerSecond(days: Int, seed: UInt64, scenario: ScenarioConfiguration) -> Double {
    perSecond(scenario, seed: seed, atLeast: days) { _, configuration in
      configuration.days * configuration.fleet.devices
    }
  }

  /// Whole replications of `scenario` (seed replaced by `seed`, results reused through a pool) until what
  /// `counted` counts of them reaches `amount`: that count per second of wall time.
  private static func perSecond(
    _ scenario: ScenarioConfiguration, seed: UInt64, atLeast amount: Int,
    counted: (ReplicationResult, ScenarioConfiguration) -> Int
  ) -> Double {
    var configuration = scenario
    configuration.seed = seed
    var total = 0
    var replication = 0
    let pool = ResultPool()
    let stopwatch = Stopwatch()
    while total < amount {
      let result = ScenarioRunner.runReplication(configuration, replication: replication, pool: pool)
      total += counted(result, configuration)
      pool.give(result)
      replication += 1
    }
    return Double(total) / (stopwatch.elapsedNanoseconds / 1e9)
  }
}
