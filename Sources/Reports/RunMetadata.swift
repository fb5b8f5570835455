/// What a run's reports say about where it came from.
public struct RunMetadata: Sendable {
  public var widgetsimVersion: String
  public var scenarioFile: String
  public var scenarioText: String
  public var overrides: [String]
  public var wallTimeSeconds: Double

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
