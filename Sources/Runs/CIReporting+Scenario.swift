import Comparisons
import ScenarioFiles

extension CIReporting {
  /// The CI outputs of a command that ran a scenario: `junit` (the JUnit XML file, or nil), and under GitHub
  /// Actions (its environment variables) the step summary and annotations on the lines of `scenarioFile`
  /// (whose text is `scenarioText`) where failing widgets are written.
  public static func forScenario(junit: String?, scenarioFile: String?, scenarioText: String?) -> CIReporting {
    var ci = CIReporting.fromProcessEnvironment(junit: junit)
    if ci.annotates, let scenarioFile, let scenarioText {
      let map = ScenarioSourceMap(text: scenarioText)
      ci.scenarioFile = scenarioFile
      ci.lineOfSubject = { map.line(ofSubject: $0) }
    }
    return ci
  }
}
