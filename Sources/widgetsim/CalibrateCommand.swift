import ArgumentParser
import FieldLogs
import Reports

/// `widgetsim calibrate`: fit a scenario to what real phones logged.
struct CalibrateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calibrate",
    abstract: "Fit a scenario's uncertain parameters to field logs and check the fit.",
    discussion: """
      Reads field logs (JSON Lines, docs/field-logs.md), fits the parameters they inform, writes
      fitted.yaml (the base scenario with the fitted values), fit.csv (estimate, 95% interval, n, method)
      and fit_report.csv (the logs against a simulation of fitted.yaml, distribution by distribution).
      Exit codes: 0 done, 1 the run failed, 2 bad input.
      """)

  @Argument(help: "Field log files (JSON Lines).")
  var logs: [String]

  @Option(help: "The base scenario: what the logs do not inform, and the app's own settings.")
  var scenario: String

  @Option(help: "Folder for fitted.yaml, fit.csv and fit_report.csv.")
  var out: String

  @Option(help: "Share of phones kept aside to check the fit on (0 to <1; 0.5 is the honest reading).")
  var holdout = 0.0

  @Option(help: "Threads for the simulation that checks the fit (default: all cores).")
  var jobs: Int?

  func validate() throws {
    if logs.isEmpty { throw ValidationError("give at least one field log") }
    if !(0..<1).contains(holdout) { throw ValidationError("--holdout takes a share in 0..<1, got \(holdout)") }
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
  }

  func run() throws {
    var calibration = Calibration(logs: logs, base: scenario, out: out)
    calibration.holdout = holdout
    calibration.jobs = jobs ?? Console.standard.cores
    for line in try calibration.run().lines { Console.standard.print(line) }
  }
}
