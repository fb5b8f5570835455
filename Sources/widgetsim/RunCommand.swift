import ArgumentParser
import FieldLogs
import HTMLReport
import Reports
import Runs
import ScenarioFiles
import WidgetModel

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
      "Also write trace.csv: every event of device DEVICE (0-based, as in devices.csv; 0 for a single phone) "
        + "in the first replication, one row each, the data of report.html's device timeline.",
      valueName: "DEVICE"))
  var trace: Int?

  @Option(
    help: ArgumentHelp(
      "Also write FILE: what each device's app could have logged in the first replication, as JSON Lines "
        + "(docs/field-logs.md): the input of `widgetsim calibrate`.", valueName: "FILE"))
  var fieldLog: String?

  @Option(
    help: ArgumentHelp(
      "Simulate only part K of N of a fleet's devices (device d is in part d mod N) and keep exact results; "
        + "`widgetsim merge` adds the N folders into the reports of the whole fleet, byte for byte.",
      valueName: "K/N"))
  var shard: String?

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
    if force && resume {
      throw ValidationError("--resume carries on the run in the output folder and --force replaces it: give one")
    }
    for text in precision where PrecisionTarget(text) == nil {
      throw ValidationError(
        "--precision takes METRIC[@SUBJECT]:P% with 0 < P <= 100, e.g. staleness_p95:5%; got '\(text)'")
    }
    if let trace, trace < 0 { throw ValidationError("--trace takes a device number from 0, got \(trace)") }
    if maxReplications < 1 { throw ValidationError("--max-replications must be at least 1, got \(maxReplications)") }
    if let maxDevices, maxDevices < 1 { throw ValidationError("--max-devices must be at least 1, got \(maxDevices)") }
    if let refusal = scenario.limits.refusal(replications: maxReplications) {
      throw ValidationError("--max-replications: \(refusal)")
    }
    if precisionBatch < 1 { throw ValidationError("--precision-batch must be at least 1, got \(precisionBatch)") }
    if !precision.isEmpty && shard != nil {
      throw ValidationError("--precision decides replications as it goes: it does not apply to a shard")
    }
    if let shard {
      guard FleetShard(shard) != nil else {
        throw ValidationError("--shard takes K/N with 0 <= K < N, e.g. 0/4; got '\(shard)'")
      }
      if resume { throw ValidationError("--resume does not apply to a shard: rerun it with --force") }
      if report { throw ValidationError("a shard has no reports to chart: give --report to the merged run's `report`") }
      if trace != nil || fieldLog != nil {
        throw ValidationError("--trace and --field-log do not apply to a shard: give them to a run without --shard")
      }
    }
  }

  func run() throws {
    let loaded = try scenario.load(file)
    let targets = precision.compactMap(PrecisionTarget.init)
    // --precision may run up to --max-replications: that run's work is held to the work limit.
    if !targets.isEmpty, let refusal = loaded.work.with(replications: maxReplications).refusal(scenario.limits) {
      throw CommandFailure.badInput("--max-replications \(maxReplications): \(refusal)")
    }
    // The manifest records the precision options with the overrides (and a resume must repeat them).
    var arguments = scenario.arguments
    if !targets.isEmpty {
      arguments += targets.map { "--precision \($0.description)" }
      arguments += ["--max-replications \(maxReplications)", "--precision-batch \(precisionBatch)"]
    }
    var execution = RunExecution(
      loaded, overrides: arguments, directory: out, jobs: jobs, perDevice: perDevice, detail: detail, quiet: quiet,
      existing: resume ? .resume : force ? .replace : .refuse, version: WidgetSim.version)
    execution.trace = trace
    if !targets.isEmpty {
      execution.precision = PrecisionPlan(
        targets: targets, minimum: loaded.configuration.replications, batch: precisionBatch,
        maximum: maxReplications)
    }
    if let shard, let part = FleetShard(shard) {
      try execution.runShard(
        part, allowLarge: scenario.allowLarge, console: .standard, stop: Interruption.stopRequest)
      return
    }
    if try SampleSizePlan.applies(targets, to: loaded.configuration) {
      execution.precision = nil
      try runGrowingDevices(execution, targets: targets)
    } else {
      try execution.run(console: .standard, stop: Interruption.stopRequest)
    }
    if let fieldLog { try FieldLogWriter.write(loaded.configuration, to: fieldLog) }
    if report { Console.standard.print("report: \(try HTMLReport.writeForCommand(directory: execution.directory))") }
  }

  /// `--precision` on per-second figures of a sampled fleet: runs `first`, then again with more devices
  /// (``SampleSizePlan``) in the same folder until the targets are met; the folder keeps the last run, whose
  /// manifest records its devices.
  private func runGrowingDevices(_ first: RunExecution, targets: [PrecisionTarget]) throws {
    if resume {
      throw CommandFailure.badInput(
        "--resume: a run whose --precision grows its devices starts again with each sample: rerun it with --force")
    }
    let console = Console.standard
    let represents = first.scenario.configuration.fleet.represents
    let plan = SampleSizePlan(
      targets: targets, maximumDevices: maxDevices ?? Int(Swift.min(represents, 1e15).rounded(.down)))
    var execution = first
    var options = scenario
    while true {
      let summary = try execution.run(console: console, stop: Interruption.stopRequest)
      let devices = execution.scenario.configuration.fleet.devices
      let next = plan.nextDevices(after: devices, summary: summary)
      let report = plan.report(summary, devices: devices, next: next)
      if !quiet || report.contains("warning") { console.error(report + "\n") }
      guard let next else { return }
      options.devices = next
      let loaded = try options.load(file)
      let arguments = options.arguments + targets.map { "--precision \($0.description)" }
      var again = RunExecution(
        loaded, overrides: arguments, directory: execution.directory, jobs: jobs, perDevice: perDevice,
        detail: detail, quiet: quiet, existing: .replace, version: WidgetSim.version)
      again.trace = trace
      execution = again
    }
  }
}
