import ArgumentParser
import CommandSupport
import FieldLogs
import Runs

/// `widgetsim calibrate`: fit a scenario to what real phones logged.
struct CalibrateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calibrate",
    abstract: "Fit a scenario's uncertain parameters to field logs and check the fit.",
    discussion: "Writes fitted.yaml, fit.csv, fit_report.csv, fit_curves.csv, report.html and, with --server-log, "
      + "delivery.csv (docs/field-logs.md). Exit 0 done, 1 failed, 2 bad input."
  )

  @Argument(help: "Field log files (JSON Lines), at least one.")
  var logs: [String]

  @Option(help: "The server's send log (CSV: t,device,push,priority; repeatable): the pushes' delivery.")
  var serverLog: [String] = []

  @Option(help: "The base scenario: what the logs do not inform, and the app's own settings.")
  var scenario: String

  @Option(help: "Folder for fitted.yaml, fit.csv, fit_report.csv and the rest.")
  var out: String

  @Option(parsing: .unconditional, help: "Share of phones kept aside to check the fit on (0 to <1, e.g. 0.5).")
  var holdout = 0.0

  @Option(help: "Threads for the simulation that checks the fit (default: all cores).")
  var jobs: Int?

  @Option(help: "The most phones the fit's check simulates (default 2000; the logs' phones when fewer).")
  var checkDevices: Int?

  @Flag(help: "Replace the reports of an earlier command in the output folder (otherwise widgetsim refuses).")
  var force = false

  func validate() throws { try refuse(Calibration.problem(holdout: holdout, jobs: jobs, checkDevices: checkDevices)) }

  func run() throws {
    try Calibration(
      logs: logs, serverLogs: serverLog, base: scenario, out: out, holdout: holdout,
      jobs: jobs ?? Console.standard.cores, force: force, checkDevices: checkDevices
    ).runForCommand(console: .standard)
  }
}
