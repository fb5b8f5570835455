/// The scenario options of a command line, as every command that reads a scenario takes them: `--set`
/// overrides in order, the shorthands (`--seed`, `--replications`, `--days`, `--warmup-days`, `--devices`)
/// and the size limits (`--allow-large`, `--allow-outside-base`).
public struct ScenarioArguments: Sendable, Equatable {
  /// `--set KEY=VALUE`, in order.
  public var set: [String]
  public var seed: UInt64?
  public var replications: Int?
  public var days: Int?
  public var warmupDays: Int?
  /// `--devices`: `fleet.devices`.
  public var devices: Int?
  public var allowLarge: Bool
  public var allowOutsideBase: Bool

  public init(
    set: [String] = [], seed: UInt64? = nil, replications: Int? = nil, days: Int? = nil, warmupDays: Int? = nil,
    devices: Int? = nil, allowLarge: Bool = false, allowOutsideBase: Bool = false
  ) {
    self.set = set
    self.seed = seed
    self.replications = replications
    self.days = days
    self.warmupDays = warmupDays
    self.devices = devices
    self.allowLarge = allowLarge
    self.allowOutsideBase = allowOutsideBase
  }

  public var limits: ScenarioLimits { ScenarioLimits(allowLarge: allowLarge, allowOutsideBase: allowOutsideBase) }

  /// Every override argument, shorthands included, as the manifest records them (the `--set` arguments as
  /// given when one cannot be read: loading the scenario then says why).
  public var recorded: [String] { (try? overrides().map(\.argument)) ?? set }

  /// The overrides as the loader takes them: `--set` in order, then the shorthands.
  public func overrides() throws(ScenarioError) -> [ScenarioOverride] {
    try ScenarioOverride.commandLine(
      set, seed: seed, replications: replications, days: days, warmupDays: warmupDays, devices: devices)
  }

  /// Loads `file` (nil: the embedded default scenario) with the overrides, within the limits.
  public func load(_ file: String?) throws(ScenarioError) -> LoadedScenario {
    let overrides = try overrides()
    if let file { return try ScenarioLoader.load(path: file, overrides: overrides, limits: limits) }
    return try ScenarioLoader.loadDefault(overrides: overrides, limits: limits)
  }

  /// Loads the sweep `file` with the overrides, within the limits.
  public func loadSweep(_ file: String) throws -> LoadedSweep {
    try SweepLoader.load(path: file, overrides: try overrides(), limits: limits)
  }

  /// Loads `file`, a scenario or a sweep, with the overrides, within the limits.
  public func loadScenarioOrSweep(_ file: String) throws -> ScenarioOrSweep {
    try ScenarioLoader.loadScenarioOrSweep(path: file, overrides: try overrides(), limits: limits)
  }
}
