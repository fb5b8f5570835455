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

  /// These options as the loaders take them.
  var arguments: ScenarioArguments {
    ScenarioArguments(
      set: overrides, seed: seed, replications: replications, days: days, warmupDays: warmupDays, devices: devices,
      allowLarge: allowLarge, allowOutsideBase: allowOutsideBase)
  }
}
