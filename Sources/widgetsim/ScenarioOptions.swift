import ArgumentParser
import ScenarioFiles

/// Options every command that reads a scenario takes: overrides of its keys.
struct ScenarioOptions: ParsableArguments {
  @Option(
    name: .customLong("set"),
    help: ArgumentHelp(
      "Override a scenario key, e.g. --set budget.per_day.max=50 or --set widgets[headlines].timeline.after=30m. "
        + "Repeatable; applied in order.", valueName: "key=value"))
  var overrides: [String] = []

  @Option(help: "Override the scenario's seed.")
  var seed: UInt64?

  @Option(help: "Override the number of replications.")
  var replications: Int?

  @Option(help: "Override the number of simulated days.")
  var days: Int?

  @Option(help: "Override the number of simulated devices (fleet.devices).")
  var devices: Int?

  /// The overrides as the loader takes them: `--set` in order, then the shorthands.
  func scenarioOverrides() throws(ScenarioError) -> [ScenarioOverride] {
    var arguments = overrides
    if let seed { arguments.append("seed=\(seed)") }
    if let replications { arguments.append("replications=\(replications)") }
    if let days { arguments.append("days=\(days)") }
    if let devices { arguments.append("fleet.devices=\(devices)") }
    var result: [ScenarioOverride] = []
    for argument in arguments { result.append(try ScenarioOverride(argument)) }
    return result
  }

  /// Loads `file` (or the default scenario) with the overrides; on error prints it and exits 2.
  func load(_ file: String?) throws -> LoadedScenario {
    do {
      let overrides = try scenarioOverrides()
      if let file { return try ScenarioLoader.load(path: file, overrides: overrides) }
      return try ScenarioLoader.loadDefault(overrides: overrides)
    } catch {
      Console.error("error: \(error)\n")
      throw ExitCode(2)
    }
  }
}
