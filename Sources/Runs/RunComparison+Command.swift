import CommandSupport
import Comparisons
import ScenarioFiles

extension RunComparison {
  /// `widgetsim compare`: the comparison, reading the candidate's scenario within the scenario files' size
  /// limit, with the CI outputs of ``CIReporting/forScenario(junit:scenarioFile:scenarioText:)``.
  public func runForCommand(junit: String?, console: Console) throws(CommandFailure) {
    try run(scenarioLimit: ScenarioLoader.maximumFileBytes, console: console) {
      .forScenario(junit: junit, scenarioFile: $0, scenarioText: $1)
    }
  }
}
