import ArgumentParser
import CommandSupport
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

  func validate() throws {
    if files.isEmpty { throw ValidationError("give at least one scenario file") }
  }

  func run() throws {
    let valid = ScenarioValidation.check(
      files, arguments: scenario.arguments, say: Console.standard.print, warn: { Console.standard.error("\($0)\n") })
    if !valid { throw ExitCode(2) }
  }
}
