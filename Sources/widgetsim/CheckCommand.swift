import ArgumentParser
import CommandSupport
import Runs

/// `widgetsim check`: run a scenario and compare it with a stored baseline in one step, for CI.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Run a scenario and gate it against a stored baseline (the command an app's CI calls).",
    discussion: """
      Runs FILE as `run` does, then compares it with --baseline (a stored replications.csv; keep the seed and
      replications) as `compare` does, writing compare.csv beside the reports; or with --observed LOG... checks
      FILE against field logs (docs/field-logs.md). CI outputs as `compare` (step summary, annotations, --junit).
      Exit codes: 0 no gate failed, 1 a gate failed (or the run failed), 2 bad input.
      """
  )

  @Argument(help: "The scenario file (YAML).")
  var file: String

  @Option(help: "The stored baseline: a replications.csv file or a run folder.")
  var baseline: String?

  @Option(parsing: .upToNextOption, help: "Field logs to check the scenario against (instead of --baseline).")
  var observed: [String] = []

  @Option(
    help: ArgumentHelp("With --observed: a distribution's KS-distance floor, NAME=D (repeatable).", valueName: "floor"))
  var ksFloor: [String] = []

  @Option(help: "With --observed: the server's send log (CSV), repeatable.")
  var serverLog: [String] = []

  @Option(help: "With --observed: the most phones to simulate (default 2000; the logs' phones when fewer).")
  var checkDevices: Int?

  @OptionGroup var scenario: ScenarioOptions

  @OptionGroup var gates: GateOptions

  @Option(help: "Folder for the reports and compare.csv (default: Reports/<scenario name>).")
  var out: String?

  @Option(help: "Threads to spread a fleet's devices over (default: all cores). Results are the same for any value.")
  var jobs: Int?

  @Flag(help: "Print only the comparison (no run summary, no progress).")
  var quiet = false

  @Flag(
    help:
      "Replace the reports (and compare.csv, or with --observed the fit) of an earlier command in the output folder.")
  var force = false

  @Flag(help: "Also write report.html of the run (see `widgetsim report`), before the comparison.")
  var report = false

  /// The check these options ask for.
  var check: ScenarioCheck {
    let request = RunRequest(
      file: file, scenario: scenario.arguments, out: out, quiet: quiet, jobs: jobs, force: force, report: report,
      version: WidgetSim.version)
    let logs = ScenarioCheck.ObservedLogs(
      logs: observed, serverLogs: serverLog, floors: ksFloor, checkDevices: checkDevices)
    return ScenarioCheck(
      request: request, file: file, baseline: baseline, observed: logs, comparison: gates.comparison,
      junit: gates.junit)
  }

  func validate() throws { try refuse(check.problem()) }

  func run() throws { try check.run(console: .standard, stop: Interruption.stopRequest) }
}
