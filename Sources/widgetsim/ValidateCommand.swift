import ArgumentParser
import CommandSupport
import Runs
import ScenarioFiles

/// `widgetsim validate`: check scenario files without running them.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Check scenario files without running them; exits 2 if any is invalid."
  )

  @Argument(help: "Scenario files to check.")
  var files: [String]

  @OptionGroup var scenario: ScenarioOptions

  func validate() throws { try refuse(ScenarioValidation.problem(files: files)) }

  func run() throws {
    try ScenarioValidation.checkForCommand(files, arguments: scenario.arguments, console: .standard)
  }
}
