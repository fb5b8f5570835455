import ArgumentParser
import CommandSupport
import SimulationEngine

/// `widgetsim`: the command-line tool. Each subcommand is one type; the work lives in the libraries.
@main
struct WidgetSim: ParsableCommand {
  /// The version of widgetsim, printed by `--version` and recorded in reports.
  static let version = "0.3.0"

  static let configuration = CommandConfiguration(
    commandName: "widgetsim",
    abstract: "Simulate how iOS refreshes widgets and Live Activities under its budgets, and the battery it costs.",
    version: "widgetsim \(version) (GSL \(gslVersion))",
    subcommands: [
      RunCommand.self, SweepCommand.self, MergeCommand.self, CompareCommand.self, CheckCommand.self,
      ValidateCommand.self, ReportCommand.self, BenchCommand.self, CalibrateCommand.self,
    ]
  )

  /// Runs the command, with widgetsim's exit codes: 0 ok, 1 the run failed, 2 bad input or usage.
  ///
  /// ArgumentParser reports usage errors with EX_USAGE (64); widgetsim promises 2, as its docs say.
  static func main() {
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let failure as CommandFailure {
      Console.standard.exit(status: failure.status, error: failure.message)
    } catch {
      let code = exitCode(for: error)
      let message = CommandFailure.lowercasedPrefix(fullMessage(for: error))
      if code == .success { Console.standard.exit(status: 0, output: message) }
      Console.standard.exit(status: code == .validationFailure ? 2 : code.rawValue, error: message)
    }
  }
}
