import CommandSupport
import Fleets
import Reports
import Results
import ScenarioFiles
import WidgetModel

/// Running a loaded scenario and writing its reports: `widgetsim run`, and the run half of `widgetsim check`.
public struct RunExecution: Sendable {
  /// What to do with reports already in the output folder.
  public enum Existing: Sendable, Equatable {
    /// Stop with exit 2 (the default).
    case refuse
    /// Replace them (`--force`).
    case replace
    /// Carry on the interrupted run they hold (`--resume`).
    case resume
  }

  public var scenario: LoadedScenario
  /// Every override argument, shorthands included, as the manifest records them.
  public var overrides: [String]
  public var directory: String
  /// Threads for a fleet's devices; nil for every core.
  public var jobs: Int?
  /// Whether to write devices.csv.
  public var perDevice: Bool
  /// Whether the reports give every replication's rows (`--detail`), not the mean over replications.
  public var detail: Bool
  /// `--trace`: the fleet device (0-based, as in devices.csv) whose first replication goes to trace.csv.
  public var trace: Int?
  /// `--precision`: replications until every target is met (the scenario's replications are the minimum).
  public var precision: PrecisionPlan?
  /// Print nothing but errors.
  public var quiet: Bool
  public var existing: Existing
  /// The widgetsim version the manifest records.
  public var version: String

  /// A run of `scenario` into `directory` (nil: ``defaultDirectory(_:)``).
  public init(
    _ scenario: LoadedScenario, overrides: [String], directory: String?, jobs: Int? = nil, perDevice: Bool = false,
    detail: Bool = false, quiet: Bool = false, existing: Existing = .refuse, version: String
  ) {
    self.scenario = scenario
    self.overrides = overrides
    self.directory = directory ?? RunExecution.defaultDirectory(scenario.configuration)
    self.jobs = jobs
    self.perDevice = perDevice
    self.detail = detail
    self.quiet = quiet
    self.existing = existing
    self.version = version
  }

  /// `Reports/<scenario name>`.
  public static func defaultDirectory(_ configuration: ScenarioConfiguration) -> String {
    "Reports/\(RunReports.folderName(for: configuration.name))"
  }

  /// Simulates every replication into ``directory``, printing the estimate, progress and summary on
  /// `console` unless ``quiet``. Fails with exit 2 when the folder holds reports it may not touch, 1 on a
  /// write failure, and `stop`'s status (130 / 143) when stopped, keeping the finished replications.
  @discardableResult
  public func run(console: Console, stop: StopRequest) throws(CommandFailure) -> RunSummary {
    if let problem = OutputFolder.problem(directory) { throw .badInput(problem) }
    let configuration = scenario.configuration
    let clock = ContinuousClock()
    let started = clock.now
    var metadata = RunMetadata(
      widgetsimVersion: version, scenarioFile: scenario.file, scenarioText: scenario.text, overrides: overrides,
      wallTimeSeconds: 0)
    try checkTraceDevice()
    try checkPrecisionTargets()
    // The folder's reports are checked under its lock: no other command can write them in between.
    let lock = try OutputFolder.prepare(directory)
    defer { withExtendedLifetime(lock) {} }
    let resuming = try checkFolder(metadata: metadata)
    announce(console: console)
    metadata.warnings = scenario.warnings.map(\.description)
    stop.listen()
    return try CommandFailure.mapping(status: 1) {
      let writer = try RunReportWriter(
        configuration: configuration, directory: directory, perDevice: perDevice, detail: detail,
        resuming: resuming)
      let progress =
        quiet
        ? nil : ProgressLine.make(days: configuration.days, replications: configuration.replications, console: console)
      let target = try runToTarget(writer, threads: jobs ?? console.cores, progress: progress, stop: stop)
      progress?.finish()
      let elapsed = clock.now - started
      metadata.wallTimeSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let finished = writer.replicationsCompleted
      if finished < target {
        try commitInterrupted(writer, finished: finished, target: target, metadata: metadata, stop: stop)
      }
      return try commitComplete(writer, finished: finished, metadata: metadata, console: console)
    }
  }

  /// Refuses a `--trace` device the fleet does not have, before anything is run.
  func checkTraceDevice() throws(CommandFailure) {
    let devices = scenario.configuration.fleet.devices
    if let trace, !(0..<devices).contains(trace) {
      throw .badInput(
        "--trace \(trace): the run has \(devices) device\(devices == 1 ? "" : "s"), numbered 0"
          + (devices == 1 ? "" : " to \(devices - 1)"))
    }
  }

  /// Refuses a `--precision` target naming a summary row the run will not have: found now, not after the run.
  func checkPrecisionTargets() throws(CommandFailure) {
    guard let precision else { return }
    try checkPrecisionTargets(precision.targets)
  }

  /// Refuses any of `targets` naming a summary row the run will not have (a misspelt metric or subject),
  /// with the nearest names.
  func checkPrecisionTargets(_ targets: [PrecisionTarget]) throws(CommandFailure) {
    let keys = RunSummary.Accumulator(subjects: RunSummary.Subjects(scenario.configuration)).rowKeys
    for target in targets {
      if let refusal = target.refusal(keys: keys) { throw .badInput("--precision \(target.description): \(refusal)") }
    }
  }

  /// Says what comes before the run: the scenario's warnings (a pinned time in a fleet, reloads that never
  /// happen), even when quiet, as they change what its figures mean; and unless quiet, a long run's estimate.
  func announce(console: Console) {
    for warning in scenario.warnings { console.error("\(warning)\n") }
    let work = scenario.work
    if !quiet && work.events >= ScenarioLimits.announcedEvents {
      let cores = min(jobs ?? console.cores, scenario.configuration.fleet.devices)
      console.error("estimated work: \(work.description), \(work.duration(cores: cores))\n")
    }
  }

  /// Runs replications into `writer` until the run's target: the scenario's replications or, with
  /// ``precision``, the checkpoint at which every target is met. Returns the last target; when `stop` is
  /// requested, `writer` has fewer replications than it.
  func runToTarget(_ writer: RunReportWriter, threads: Int, progress: ProgressLine?, stop: StopRequest)
    throws(AtomicFile.WriteError) -> Int
  {
    var target = scenario.configuration.replications
    if let precision {
      let done = writer.replicationsCompleted
      target =
        precision.isDone(completed: done, summary: writer.summarySoFar) ? done : precision.nextCheck(after: done)
    }
    // One pool for every batch: a batch's results serve the next one's replications.
    // Side by side, each thread holds a result running and a partial sum.
    let pool = ResultPool(capacity: Swift.max(16, 2 * threads + 1))
    while true {
      writer.plan(replications: target)
      try runReplications(
        upTo: target, into: writer, threads: threads, pool: pool, progress: progress, stop: stop)
      guard let precision, writer.replicationsCompleted == target,
        !precision.isDone(completed: target, summary: writer.summarySoFar)
      else { break }
      target = precision.nextCheck(after: target)
    }
    return target
  }

  /// Commits the reports of the `finished` replications of a run stopped before `target`, marked incomplete
  /// for `--resume`, and fails with `stop`'s status (without writing anything when none finished).
  func commitInterrupted(
    _ writer: RunReportWriter, finished: Int, target: Int, metadata: RunMetadata, stop: StopRequest
  ) throws -> Never {
    guard finished > 0 else {
      throw CommandFailure(
        status: stop.exitStatus(),
        message: "interrupted before the first replication (or batch of replications) finished: nothing written")
    }
    try writeTrace(writer)
    try writer.finish(metadata: metadata, stoppedEarly: true)
    throw CommandFailure(
      status: stop.exitStatus(),
      message: "interrupted: \(finished) of \(target) replications finished; their reports "
        + "are in \(directory)/ (manifest.json says \"complete\": false). To carry on, run the same command "
        + "with --resume")
  }

  /// Commits a complete run's reports and prints its headline, and with ``precision`` whether its targets
  /// were met (a warning even when quiet).
  func commitComplete(_ writer: RunReportWriter, finished: Int, metadata: RunMetadata, console: Console)
    throws(AtomicFile.WriteError) -> RunSummary
  {
    try writeTrace(writer)
    let summary = try RunExecution.finish(writer, metadata: metadata, quiet: quiet, console: console)
    if let precision {
      // Beside the figures it judges, on standard output; a target missed is a warning even when quiet.
      let report = precision.report(summary, completed: finished)
      if !quiet {
        console.print(report)
      } else if report.contains("warning") {
        console.error(report + "\n")
      }
    }
    return summary
  }

  /// Runs replications until `writer` has `total`, one after another (each spreading its devices over the
  /// threads) or side by side; stops after the last replication finished in order when `stop` is requested.
  func runReplications(
    upTo total: Int, into writer: RunReportWriter, threads: Int, pool: ResultPool, progress: ProgressLine?,
    stop: StopRequest
  ) throws(AtomicFile.WriteError) {
    let configuration = scenario.configuration
    if FleetRunner.runsReplicationsSideBySide(configuration, jobs: threads) {
      try runSideBySide(upTo: total, into: writer, threads: threads, pool: pool, progress: progress, stop: stop)
      return
    }
    for replication in writer.replicationsCompleted..<total {
      var report: (@Sendable (FleetProgress) -> Void)?
      if let progress {
        report = { fleetProgress in progress.update(replication: replication, fleetProgress) }
      }
      guard !stop.isRequested(),
        let (result, devices) = FleetRunner.run(
          configuration, replication: replication, jobs: threads, perDevice: perDevice, progress: report,
          stop: stop.isRequested, pool: pool, summedOnly: !writer.detail)
      else { return }
      if let spare = try writer.absorb(result, devices: devices) { pool.give(spare) }
    }
  }

  /// Runs the replications up to `total` in batches, each batch's side by side on `threads` threads (a fleet
  /// too small to keep the threads busy), and adds them to `writer` in order. Without `--detail` each thread
  /// adds its replications into the run's sum itself (``ReplicationSums``): the writer merges a partial total
  /// per thread and writes each replication's rows. A batch stopped part way adds none of its replications
  /// (some of them may be in a partial total already): `--resume` runs it again.
  /// Replications each thread runs per batch side by side. Between batches the threads wait for each other
  /// and for the writer, which costs a phone's replications of a few milliseconds several percent (32 a
  /// thread: 4% of 2,000 polling replications); a batch stopped part way runs again on `--resume`. So: about
  /// 4,096 device-days a thread (a few tenths of a second), between 1 and 128 replications.
  static func replicationsPerThread(_ configuration: ScenarioConfiguration) -> Int {
    let deviceDays = Swift.max(1, configuration.fleet.devices * configuration.simulatedDays)
    return Swift.min(128, Swift.max(1, 4_096 / deviceDays))
  }

  func runSideBySide(
    upTo total: Int, into writer: RunReportWriter, threads: Int, pool: ResultPool, progress: ProgressLine?,
    stop: StopRequest
  ) throws(AtomicFile.WriteError) {
    while writer.replicationsCompleted < total, !stop.isRequested() {
      let first = writer.replicationsCompleted
      let perThread = RunExecution.replicationsPerThread(scenario.configuration)
      let batch = first..<Swift.min(total, first + perThread * threads)
      var finished: (@Sendable (Int) -> Void)?
      if let progress { finished = { done in progress.replications(first + done, of: total) } }
      let summary = writer.summaryAccumulator
      let rowText = writer.replicationRows
      func runBatch<Output: Sendable>(
        _ process: @Sendable (consuming ReplicationResult, [DeviceSummary]) -> Output
      ) -> [Output?] {
        FleetRunner.run(
          scenario.configuration, replications: batch, jobs: threads, perDevice: perDevice, finished: finished,
          stop: stop.isRequested, pool: pool, summedOnly: !writer.detail, process: process)
      }
      guard let sums = writer.makeSums() else {
        let outcomes = runBatch { result, devices in (result, devices, summary.numbers(of: result)) }
        for outcome in outcomes {
          guard let (result, devices, values) = outcome else { return }
          try writer.add(result, devices: devices, values: values)
          pool.give(result)
        }
        continue
      }
      let outcomes = runBatch { result, devices in
        let values = summary.numbers(of: result)
        let rows = rowText.text(values, replication: result.replication)
        let figures = (result.replication, result.eventsHandled, result.fingerprint)
        let intervals = result.replication == 0 ? summary.intervals(of: result) : []
        if let spare = sums.add(result) { pool.give(spare) }
        return (figures, devices, values, rows, intervals)
      }
      guard outcomes.allSatisfy({ $0 != nil }) else { return }
      for spare in writer.add(sums) { pool.give(spare) }
      for case ((let replication, let events, let fingerprint), let devices, let values, let rows, let intervals)?
        in outcomes
      {
        writer.note(intervals)
        try writer.add(
          summed: replication, eventsHandled: events, fingerprint: fingerprint, devices: devices, values: values,
          rows: rows)
      }
    }
  }

  /// With ``trace``, adds trace.csv to `writer`'s reports: the traced device simulated again alone, with the
  /// draws it had in the first replication. (Without, the reports' commit removes an earlier run's.)
  func writeTrace(_ writer: RunReportWriter) throws(AtomicFile.WriteError) {
    guard let trace else { return }
    let records = ScenarioRunner.trace(scenario.configuration, device: trace)
    try TraceReport.write(records, device: trace, configuration: scenario.configuration, into: writer.set)
  }

  /// Commits a complete run's reports and prints its headline unless `quiet`.
  static func finish(_ writer: RunReportWriter, metadata: RunMetadata, quiet: Bool, console: Console)
    throws(AtomicFile.WriteError) -> RunSummary
  {
    var herds = writer.herds.map { "herd: \($0)" + RunExecution.herdAdvice }
    let configuration = writer.configuration
    if let rate = configuration.server.pushRatePerSecond, configuration.fleet.devices > 1,
      let sent = writer.summarySoFar.row("mean_requests_per_second", widget: ServerDirection.sent.name),
      sent.values.mean > rate
    {
      herds.append(
        "the fleet is sent \(RunSummaryText.fixed(sent.values.mean, 0)) pushes a second on average, more than "
          + "server.push_rate (\(RunSummaryText.fixed(rate, 0))): a real server would fall behind, which the model "
          + "does not queue; raise server.push_rate to what your provider sends")
    }
    herds += PlaceholderWarning.warnings(configuration, writer.summarySoFar)
    herds += SparseSampleWarning.warnings(configuration, writer.summarySoFar)
    var metadata = metadata
    metadata.warnings += herds
    let summary = try writer.finish(metadata: metadata)
    if !quiet {
      console.print(
        RunSummaryText.text(
          configuration: writer.configuration, summary: summary, events: writer.eventsHandled,
          directory: writer.directory, seconds: metadata.wallTimeSeconds, largestPeaks: writer.largestPeaks,
          warnings: herds))
    } else {
      for herd in herds { console.error("warning: \(herd)\n") }
    }
    return summary
  }

  /// What a herd warning suggests.
  static let herdAdvice =
    ": a peak the simulator made, not the fleet; give the phones their differences (fleet.spread, fleet.vary, "
    + "fleet.install_time, fleet.timezone_offset) or name what happens then (events, server.push_rate)"

  /// Applies ``existing`` to the reports in ``directory``; for a resume, what the interrupted run finished.
  func checkFolder(metadata: RunMetadata) throws(CommandFailure) -> RunProgress? {
    switch existing {
    case .replace:
      return nil
    case .refuse:
      let found = ExistingReports.find(ExistingReports.runFiles, in: directory)
      guard found.isEmpty else {
        throw .badInput(
          ExistingReports.refusal(found, in: directory, resumable: found.contains(RunProgress.file)))
      }
      return nil
    case .resume:
      let progress: RunProgress
      do {
        progress = try RunProgress.read(directory: directory)
      } catch {
        throw .badInput("\(error)")
      }
      guard progress.identity == RunProgress.identity(metadata, perDevice: perDevice, detail: detail) else {
        throw .badInput(
          "\(directory)/ holds an interrupted run of a different scenario, overrides, --per-device, --detail or "
            + "widgetsim version; resume it with the command that started it, or pass --force instead")
      }
      return progress
    }
  }
}
