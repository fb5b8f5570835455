import SimulationEngine
import TestSupport
import Testing
import WidgetModel

@testable import ScenarioFiles

@Suite("Scenario loading")
struct ScenarioLoaderTests {
  static let examples = [
    "quickstart", "news-15min", "aggressive-5min", "on-demand", "weather-hourly", "delivery-live-activity",
    "sports-frequent-updates", "weather-push", "memory-heavy", "cellular-commuter", "battery-low-power",
    "fleet-capacity", "stock-market-hours", "fleet-breaking-news", "fleet-food-delivery",
  ]

  @Test("every example scenario loads", arguments: examples)
  func examplesLoad(name: String) throws {
    let loaded = try ScenarioLoader.load(path: Repository.path("Scenarios/\(name).yaml"))
    #expect(loaded.configuration.name == name)
    #expect(!loaded.configuration.widgets.isEmpty)
  }

  @Test("a sweep file is refused by the scenario loader with a pointer to `widgetsim sweep`, and loads as a sweep")
  func sweepFiles() throws {
    let path = Repository.path("Scenarios/sweep-refresh-interval.yaml")
    guard case .sweep = try ScenarioLoader.loadScenarioOrSweep(path: path) else {
      Issue.record("a sweep file did not load as a sweep")
      return
    }
    do {
      _ = try ScenarioLoader.load(path: path)
      Issue.record("loaded a sweep as a scenario")
    } catch {
      #expect(error.keyPath == "sweep")
      #expect(error.message.contains("widgetsim sweep"))
    }
    let sweep = try SweepLoader.load(path: path)
    #expect(sweep.points.count == 10)
    #expect(sweep.configurations.allSatisfy { $0.replications == 10 && $0.days == 30 })
  }

  @Test("the embedded default scenario is Scenarios/quickstart.yaml, byte for byte")
  func defaultScenarioMatchesFile() throws {
    let file = try ScenarioLoader.readFile(Repository.path("Scenarios/quickstart.yaml"))
    #expect(DefaultScenario.yaml + "\n" == file, "run scripts/embed-default-scenario")
    let loaded = try ScenarioLoader.loadDefault()
    #expect(loaded.configuration.name == "quickstart")
  }

  @Test("the issue's example reads as written: units, distributions, policy")
  func exampleValues() throws {
    let configuration = try ScenarioLoader.load(path: Repository.path("Scenarios/news-15min.yaml")).configuration
    #expect(configuration.days == 7)
    #expect(configuration.seed == 42)
    #expect(configuration.replications == 5)
    #expect(configuration.user.sleep.from == TimeOfDay(hours: 23, minutes: 30))
    #expect(configuration.user.homeScreenViews == HourlyRate(perHour: 6))
    #expect(configuration.budget.minPerDay == 40 && configuration.budget.maxPerDay == 70)
    #expect(configuration.budget.minInterval == .minutes(5))
    let widget = try #require(configuration.widgets.first)
    #expect(widget.timeline.policy == .after(.minutes(15)))
    #expect(widget.family == .systemMedium)
    #expect(abs(widget.build.cpuSeconds.mean - 0.25 * (0.125).squareRootExp) < 1e-12)
    #expect(widget.build.memoryBytes.mean == 14_000_000)
    #expect(widget.build.timeLimit == .seconds(5))
    #expect(widget.data.changes == HourlyRate(perHour: 2))
    #expect(widget.data.onChange == .reloadKind)
    #expect(configuration.system.afterDelay.mean == 240)
  }

  @Test("units: durations, sizes and times of day")
  func units() {
    #expect(Units.seconds("90s") == 90)
    #expect(Units.seconds("15m") == 900)
    #expect(Units.seconds("2h") == 7_200)
    #expect(Units.seconds("1d") == 86_400)
    #expect(Units.seconds("250ms") == 0.25)
    #expect(Units.seconds("0.25s") == 0.25)
    #expect(Units.seconds("15") == nil)
    #expect(Units.seconds("m") == nil)
    #expect(Units.bytes("30KB") == 30_000)
    #expect(Units.bytes("14MB") == 14_000_000)
    #expect(Units.bytes("1KiB") == 1_024)
    #expect(Units.bytes("30") == nil)
    #expect(Units.timeOfDay("07:30")! == (7, 30))
    #expect(Units.timeOfDay("24:00") == nil)
    #expect(Units.timeOfDay("7:5") == nil)
  }

  static let minimal = """
    name: minimal
    widgets:
      - id: headlines
        kind: NewsHeadlines
        timeline: {policy: after, after: 15m}
    """

  @Test("--set overrides keys by path, including list elements by id")
  func overrides() throws {
    let overrides = try [
      ScenarioOverride("budget.per_day.max=50"), ScenarioOverride("widgets[headlines].timeline.after=30m"),
      ScenarioOverride("days=3"), ScenarioOverride("system.after_delay={dist: exponential, mean: 2m}"),
    ]
    let configuration = try ScenarioLoader.load(
      text: ScenarioLoaderTests.minimal, file: "minimal.yaml", overrides: overrides
    )
    .configuration
    #expect(configuration.budget.maxPerDay == 50)
    #expect(configuration.widgets[0].timeline.policy == .after(.minutes(30)))
    #expect(configuration.days == 3)
    #expect(configuration.system.afterDelay.mean == 120)
  }

  @Test("a bad --set names the override, the key path and what was expected")
  func badOverrides() throws {
    let cases: [(String, String)] = [
      (
        "budget.per_dy.max=50",
        "--set budget.per_dy.max=50: budget.per_dy: unknown key 'per_dy' (did you mean 'per_day'?)"
      ),
      (
        "widgets[headlnes].timeline.after=30m",
        "--set widgets[headlnes].timeline.after=30m: widgets: no element with id 'headlnes' (did you mean 'headlines'?)"
      ),
      (
        "widgets[0].timeline.after=soon",
        "--set widgets[0].timeline.after=soon: widgets[headlines].timeline.after: expected a duration"
      ),
      ("days", "--set days: expected KEY=VALUE"),
    ]
    for (argument, expected) in cases {
      do {
        let override = try ScenarioOverride(argument)
        _ = try ScenarioLoader.load(text: ScenarioLoaderTests.minimal, file: "minimal.yaml", overrides: [override])
        Issue.record("\(argument) was accepted")
      } catch {
        #expect(error.description.hasPrefix(expected), "\(error)")
      }
    }
  }

  @Test("CRLF line endings and a UTF-8 byte order mark are accepted")
  func lineEndingsAndBOM() throws {
    let crlf = ScenarioLoaderTests.minimal.split(separator: "\n").joined(separator: "\r\n") + "\r\n"
    #expect(try ScenarioLoader.load(text: crlf, file: "crlf.yaml").configuration.name == "minimal")
    let bom = "\u{FEFF}" + ScenarioLoaderTests.minimal
    #expect(try ScenarioLoader.load(text: bom, file: "bom.yaml").configuration.widgets.count == 1)
  }

  @Test("a missing file is reported with its path")
  func missingFile() {
    #expect(throws: ScenarioError.self) { try ScenarioLoader.load(path: "/nonexistent/scenario.yaml") }
  }
}

extension Double {
  /// e^x for the lognormal mean check: exp(sigma^2 / 2) with sigma = 0.5 is exp(0.125).
  fileprivate var squareRootExp: Double {
    var sum = 1.0
    var term = 1.0
    for n in 1..<30 {
      term *= self / Double(n)
      sum += term
    }
    return sum
  }
}
