import ArgumentParser
import Reports
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

  @Option(
    help: ArgumentHelp(
      "Simulate N days before the measured ones and leave them out of every statistic (warmup_days).",
      valueName: "N"))
  var warmupDays: Int?

  @Option(help: "Override the number of simulated devices (fleet.devices).")
  var devices: Int?

  @Flag(
    help: ArgumentHelp(
      "Lift the standard size limits (days 3650, replications 100000, devices 10^7, 10^9 widget-days of work) "
        + "to the hard ones; see Scenarios/README.md, Limits."))
  var allowLarge = false

  @Flag(help: "Let a sweep file's base scenario lie outside the sweep file's folder (refused otherwise).")
  var allowOutsideBase = false

  var limits: ScenarioLimits { ScenarioLimits(allowLarge: allowLarge, allowOutsideBase: allowOutsideBase) }

  /// Every override argument, shorthands included, as the manifest records them.
  var arguments: [String] { (try? scenarioOverrides().map(\.argument)) ?? overrides }

  /// The overrides as the loader takes them: `--set` in order, then the shorthands.
  func scenarioOverrides() throws(ScenarioError) -> [ScenarioOverride] {
    try ScenarioOverride.commandLine(
      overrides, seed: seed, replications: replications, days: days, warmupDays: warmupDays, devices: devices)
  }

  /// Loads `file` (or the default scenario) with the overrides; fails with exit 2.
  func load(_ file: String?) throws(CommandFailure) -> LoadedScenario {
    try CommandFailure.mapping(status: 2) {
      let overrides = try scenarioOverrides()
      if let file { return try ScenarioLoader.load(path: file, overrides: overrides, limits: limits) }
      return try ScenarioLoader.loadDefault(overrides: overrides, limits: limits)
    }
  }

  /// Loads the sweep `file` with the overrides; fails with exit 2.
  func loadSweep(_ file: String) throws(CommandFailure) -> LoadedSweep {
    try CommandFailure.mapping(status: 2) {
      try SweepLoader.load(path: file, overrides: try scenarioOverrides(), limits: limits)
    }
  }
}
