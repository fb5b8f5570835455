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

  @Flag(help: "Replace the reports of an earlier run in the output folder (otherwise widgetsim refuses).")
  var force = false

  @Flag(help: "Carry on a run stopped by Ctrl-C or SIGTERM: the same command plus --resume.")
  var resume = false

  @Flag(help: "Also write report.html: charts and summary tables (see `widgetsim report`).")
  var report = false

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
    if force && resume {
      throw ValidationError("--resume carries on the run in the output folder and --force replaces it: give one")
    }
  }

  func run() throws {
    let loaded = try scenario.load(file)
    let directory = out ?? RunExecution.defaultDirectory(loaded.configuration)
    try RunExecution.run(
      loaded, arguments: scenario.arguments, directory: directory, jobs: jobs, perDevice: perDevice, quiet: quiet,
      existing: resume ? .resume : force ? .replace : .refuse)
    if report { print("report: \(try ReportCommand.write(directory))") }
  }
}

/// Running a loaded scenario and writing its reports: `run` and `check`.
enum RunExecution {
  /// What to do with reports already in the output folder.
  enum Existing {
    /// Stop with exit 2 (the default).
    case refuse
    /// Replace them (`--force`).
    case replace
    /// Carry on the interrupted run they hold (`--resume`).
    case resume
  }

  static func defaultDirectory(_ configuration: ScenarioConfiguration) -> String {
    "Reports/\(RunReports.folderName(for: configuration.name))"
  }

  /// Simulates every replication into `directory`. Exits 2 when the folder holds reports it may not touch,
  /// 1 on a write failure, 130 / 143 after Ctrl-C / SIGTERM (keeping the finished replications).
  @discardableResult
  static func run(
    _ loaded: LoadedScenario, arguments: [String], directory: String, jobs: Int?, perDevice: Bool, quiet: Bool,
    existing: Existing
  ) throws -> RunSummary {
    let configuration = loaded.configuration
    let clock = ContinuousClock()
    let started = clock.now
    var metadata = RunMetadata(
      widgetsimVersion: WidgetSim.version, scenarioFile: loaded.file, scenarioText: loaded.text,
      overrides: arguments, wallTimeSeconds: 0)
    let resuming = try checkFolder(directory, existing: existing, metadata: metadata, perDevice: perDevice)
    let work = WorkEstimate(configuration)
    if !quiet && work.widgetDays >= ScenarioLimits.announcedWidgetDays {
      let cores = min(jobs ?? Console.cores, configuration.fleet.devices)
      Console.error("estimated work: \(work.description), \(work.duration(cores: cores))\n")
    }
    Interruption.install()
    do {
      try AtomicFile.createDirectory(directory)
      AtomicFile.removeStaleTemporaries(in: directory)
      let writer = try RunReportWriter(
        configuration: configuration, directory: directory, perDevice: perDevice, resuming: resuming)
      let progress = quiet ? nil : ProgressLine.make(days: configuration.days, replications: configuration.replications)
      for replication in writer.replicationsCompleted..<configuration.replications {
        var report: (@Sendable (FleetProgress) -> Void)?
        if let progress {
          report = { fleetProgress in progress.update(replication: replication, fleetProgress) }
        }
        guard !Interruption.requested,
          let (result, devices) = FleetRunner.run(
            configuration, replication: replication, jobs: jobs ?? Console.cores, perDevice: perDevice,
            progress: report, stop: { Interruption.requested })
        else { break }
        try writer.add(result, devices: devices)
      }
      progress?.finish()
      let elapsed = clock.now - started
      metadata.wallTimeSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let finished = writer.replicationsCompleted
      if finished < configuration.replications {
        guard finished > 0 else {
          Console.error("interrupted before the first replication finished: nothing written\n")
          throw ExitCode(Interruption.exitCode)
        }
        try writer.finish(metadata: metadata, stoppedEarly: true)
        Console.error(
          "interrupted: \(finished) of \(configuration.replications) replications finished; their reports are in "
            + "\(directory)/ (manifest.json says \"complete\": false). To carry on, run the same command with --resume\n"
        )
        throw ExitCode(Interruption.exitCode)
      }
      let summary = try writer.finish(metadata: metadata)
      if !quiet {
        print(
          RunSummaryText.text(
            configuration: configuration, summary: summary, events: writer.eventsHandled, directory: directory,
            seconds: metadata.wallTimeSeconds))
      }
      return summary
    } catch let exit as ExitCode {
      throw exit
    } catch {
      Console.error("error: \(error)\n")
      throw ExitCode(1)
    }
  }

  /// Applies `existing` to the reports in `directory`; for a resume, what the interrupted run finished.
  static func checkFolder(_ directory: String, existing: Existing, metadata: RunMetadata, perDevice: Bool) throws
    -> RunProgress?
  {
    switch existing {
    case .replace:
      return nil
    case .refuse:
      let found = ExistingReports.find(ExistingReports.runFiles, in: directory)
      guard found.isEmpty else {
        Console.error(
          "error: "
            + ExistingReports.refusal(found, in: directory, resumable: found.contains(RunProgress.file)) + "\n")
        throw ExitCode(2)
      }
      return nil
    case .resume:
      do {
        let progress = try RunProgress.read(directory: directory)
        guard progress.identity == RunProgress.identity(metadata, perDevice: perDevice) else {
          Console.error(
            "error: \(directory)/ holds an interrupted run of a different scenario, overrides, --per-device or "
              + "widgetsim version; resume it with the command that started it, or pass --force instead\n")
          throw ExitCode(2)
        }
        return progress
      } catch let error as RunProgress.ResumeError {
        Console.error("error: \(error)\n")
        throw ExitCode(2)
      }
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
