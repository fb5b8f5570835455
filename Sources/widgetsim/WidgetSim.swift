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
  /// ArgumentParser reports usage errors with EX_USAGE (64); widgetsim promises 2, as its docs say
  /// (``CommandEnding``).
  static func main() {
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      Console.standard.exit(
        CommandEnding(after: error, parserStatus: exitCode(for: error).rawValue, parserMessage: fullMessage(for: error))
      )
    }
  }
}

/// Refuses the command line with `problem`, a library's check of the options, when there is one.
func refuse(_ problem: String?) throws {
  if let problem { throw ValidationError(problem) }
}
