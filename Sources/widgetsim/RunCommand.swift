import ArgumentParser
import CommandSupport
import Reports
import Runs

/// `widgetsim run`: simulate a scenario and write its reports.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Simulate a scenario and write CSV reports.",
    discussion: """
      Without FILE, runs the embedded default scenario (a copy of Scenarios/quickstart.yaml).
      Reports go to Reports/<scenario name>/ unless --out says otherwise: reloads.csv, budget.csv,
      staleness.csv, summary.csv and manifest.json (see docs/reports.md for every column).
      """
  )

  @Argument(help: "The scenario file (YAML). Omit it to run the default scenario.")
  var file: String?

  @OptionGroup var scenario: ScenarioOptions

  @Option(help: "Folder for the reports (default: Reports/<scenario name>).")
  var out: String?

  @Flag(help: "Print nothing but errors.")
  var quiet = false

  @Option(help: "Threads to spread a fleet's devices over (default: all cores). Results are the same for any value.")
  var jobs: Int?

  @Flag(help: "Also write devices.csv: one row of figures per simulated device.")
  var perDevice = false

  @Flag(
    help: ArgumentHelp(
      "Write every replication's rows in the hourly, per-minute and per-view reports (with a replication "
        + "column); by default they hold the mean over replications. replications.csv always has every "
        + "replication."))
  var detail = false

  @Option(
    help: ArgumentHelp(
      "Run replications until the 95% confidence interval of METRIC (for SUBJECT, or every subject with it) is "
        + "within P% of its mean: the scenario's replications first (at least 5), then batches, up to "
        + "--max-replications. For a per-second figure (p99_, peak_requests_per_second, peak_bytes_per_second) "
        + "of a fleet whose devices stand for more phones, run once: simulate more devices until the part of "
        + "its interval the sample's size accounts for is within P%, up to --max-devices. Repeatable.",
      valueName: "METRIC[@SUBJECT]:P%"))
  var precision: [String] = []

  @Option(help: "With --precision on a per-second figure: the most devices to simulate (default fleet.represents).")
  var maxDevices: Int?

  @Option(help: "With --precision: the most replications to run (default 1000).")
  var maxReplications = PrecisionPlan.defaultMaximum

  @Option(help: "With --precision: replications added between checks (default 10).")
  var precisionBatch = PrecisionPlan.defaultBatch

  @Flag(help: "Replace the reports of an earlier run in the output folder (otherwise widgetsim refuses).")
  var force = false

  @Flag(help: "Carry on a run stopped by Ctrl-C or SIGTERM: the same command plus --resume.")
  var resume = false

  @Flag(help: "Also write report.html: charts and summary tables (see `widgetsim report`).")
  var report = false

  @Option(
    help: ArgumentHelp(
      "Also write trace.csv: every event of device DEVICE (0-based, as in devices.csv) in the first replication.",
      valueName: "DEVICE"))
  var trace: Int?

  @Option(
    help: ArgumentHelp("Also write FILE: what each device's app could log (docs/field-logs.md).", valueName: "FILE"))
  var fieldLog: String?

  @Option(help: ArgumentHelp("Also write FILE: what the app's server sent each device (CSV).", valueName: "FILE"))
  var serverLog: String?

  @Option(
    help: ArgumentHelp(
      "Simulate only part K of N of a fleet's devices (device d is in part d mod N) and keep exact results; "
        + "`widgetsim merge` adds the N folders into the reports of the whole fleet, byte for byte.",
      valueName: "K/N"))
  var shard: String?

  /// The run these options ask for.
  var request: RunRequest {
    RunRequest(
      file: file, scenario: scenario.arguments, out: out, quiet: quiet, jobs: jobs, perDevice: perDevice,
      detail: detail, precision: precision, maxDevices: maxDevices, maxReplications: maxReplications,
      precisionBatch: precisionBatch, force: force, resume: resume, report: report, trace: trace,
      fieldLog: fieldLog, serverLog: serverLog, shard: shard, version: WidgetSim.version)
  }

  func validate() throws { try refuse(request.problem()) }

  func run() throws { try request.runForCommand(console: .standard, stop: Interruption.stopRequest) }
}
