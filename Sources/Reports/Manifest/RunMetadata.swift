/// What a run's reports say about where it came from.
public struct RunMetadata: Sendable {
  public var widgetsimVersion: String
  public var scenarioFile: String
  public var scenarioText: String
  public var overrides: [String]
  public var wallTimeSeconds: Double
  /// What the run warned of: the scenario's warnings, and herds in its server load.
  public var warnings: [String] = []

  public init(
    widgetsimVersion: String, scenarioFile: String, scenarioText: String, overrides: [String], wallTimeSeconds: Double
  ) {
    self.widgetsimVersion = widgetsimVersion
    self.scenarioFile = scenarioFile
    self.scenarioText = scenarioText
    self.overrides = overrides
    self.wallTimeSeconds = wallTimeSeconds
  }
}
