import ArgumentParser
import Reports
import ScenarioFiles
import SimulationEngine
import WidgetModel

/// `widgetsim run`: simulate a scenario and write its reports.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Simulate a scenario and write CSV reports.",
    discussion: """
      Without FILE, runs the embedded default scenario (a copy of Scenarios/quickstart.yaml).
      Reports go to Reports/<scenario name>/ unless --out says otherwise: reloads.csv, budget.csv,
      staleness.csv, summary.csv and manifest.json (see README.md for every column).
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

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
  }

  func run() throws {
    let loaded = try scenario.load(file)
    let directory = out ?? RunExecution.defaultDirectory(loaded.configuration)
    try RunExecution.run(
      loaded, overrides: scenario.overrides, directory: directory, jobs: jobs, perDevice: perDevice, quiet: quiet)
  }
}

/// Running a loaded scenario and writing its reports: `run` and `check`.
enum RunExecution {
  static func defaultDirectory(_ configuration: ScenarioConfiguration) -> String {
    "Reports/\(RunReports.folderName(for: configuration.name))"
  }

  /// Simulates every replication into `directory`; on a write failure prints it and exits 1.
  @discardableResult
  static func run(
    _ loaded: LoadedScenario, overrides: [String], directory: String, jobs: Int?, perDevice: Bool, quiet: Bool
  ) throws -> RunSummary {
    let configuration = loaded.configuration
    let clock = ContinuousClock()
    let started = clock.now
    var events: UInt64 = 0
    do {
      let writer = try RunReportWriter(configuration: configuration, directory: directory, perDevice: perDevice)
      let progress = quiet ? nil : ProgressLine.make(days: configuration.days, replications: configuration.replications)
      for replication in 0..<configuration.replications {
        var report: (@Sendable (FleetProgress) -> Void)?
        if let progress {
          report = { fleetProgress in progress.update(replication: replication, fleetProgress) }
        }
        let (result, devices) = FleetRunner.run(
          configuration, replication: replication, jobs: jobs ?? Console.cores, perDevice: perDevice, progress: report)
        events += result.eventsHandled
        try writer.add(result, devices: devices)
      }
      progress?.finish()
      let elapsed = clock.now - started
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let metadata = RunMetadata(
        widgetsimVersion: WidgetSim.version, scenarioFile: loaded.file, scenarioText: loaded.text,
        overrides: overrides, wallTimeSeconds: seconds)
      let summary = try writer.finish(metadata: metadata)
      if !quiet {
        print(
          RunSummaryText.text(
            configuration: configuration, summary: summary, events: events, directory: directory, seconds: seconds))
      }
      return summary
    } catch {
      Console.error("error: \(error)\n")
      throw ExitCode(1)
    }
  }
}

/// The few lines a run prints at its end: where the reports are and the headline numbers.
enum RunSummaryText {
  static func text(
    configuration: ScenarioConfiguration, summary: RunSummary, events: UInt64, directory: String, seconds: Double
  ) -> String {
    let labels = configuration.instances.map(\.label)
    var lines = [
      "\(configuration.name): \(configuration.days) days x \(configuration.replications) replications, "
        + "\(labels.count) widget instances, \(events) events in \(fixed(seconds, 2)) s",
      "reports: \(directory)/ (\(RunReports.files.joined(separator: ", ")))",
      "per widget, mean over replications [95% CI]:",
    ]
    for label in labels {
      func show(_ metric: String, _ decimals: Int) -> String {
        guard let row = summary.row(metric, widget: label) else { return "-" }
        let mean = fixed(row.values.mean, decimals)
        guard let interval = row.interval else { return mean }
        return "\(mean) [\(fixed(interval.low, decimals)), \(fixed(interval.high, decimals))]"
      }
      lines.append(
        "  \(label): reloads/day \(show("reloads_per_day", 1)) (budgeted \(show("budgeted_reloads_per_day", 1))), "
          + "withheld/day \(show("requests_per_day_withheld_granted", 1)), "
          + "staleness p95 \(show("staleness_p95", 0)) s, budget exhausted on \(show("budget_exhausted_day_share", 2)) of days"
      )
    }
    return lines.joined(separator: "\n")
  }

  static func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((value * scale).rounded())
    let sign = scaled < 0 ? "-" : ""
    let magnitude = scaled.magnitude
    guard decimals > 0 else { return "\(sign)\(magnitude)" }
    var fraction = String(magnitude % UInt64(scale))
    while fraction.count < decimals { fraction = "0" + fraction }
    return "\(sign)\(magnitude / UInt64(scale)).\(fraction)"
  }
}
