import CommandSupport
import Reports
import ScenarioFiles
import SimulationEngine

/// Running a loaded sweep (or one shard of it) into a folder, resuming from its journal: `widgetsim sweep`.
public struct SweepExecution: Sendable {
  public var sweep: LoadedSweep
  /// The `--set` arguments (and shorthands) as given, for the manifest.
  public let overrides: [String]
  /// The plan: points, tasks and the fingerprint the journal checks.
  public let plan: SweepPlan
  public var directory: String
  /// Threads; nil for every core.
  public var jobs: Int?
  /// The point `sweep_baseline.csv` compares every point with, if any.
  public var baselinePoint: Int?
  public var shard: SweepShard?
  /// Print nothing but errors.
  public var quiet: Bool
  /// Start over, removing another sweep's journal and reports.
  public var force: Bool

  /// A run of `sweep` into `directory` (nil: `Reports/<scenario name>-sweep`). `overrides` are the `--set`
  /// arguments as given: they are part of the journal's fingerprint.
  public init(
    _ sweep: LoadedSweep, overrides: [String], commonRandomNumbers: Bool = true, directory: String?,
    jobs: Int? = nil, baselinePoint: Int? = nil, shard: SweepShard? = nil, quiet: Bool = false, force: Bool = false
  ) {
    self.sweep = sweep
    self.overrides = overrides
    plan = SweepPlan(sweep: sweep, overrides: overrides, commonRandomNumbers: commonRandomNumbers)
    self.directory = directory ?? "Reports/\(RunReports.folderName(for: sweep.name))-sweep"
    self.jobs = jobs
    self.baselinePoint = baselinePoint
    self.shard = shard
    self.quiet = quiet
    self.force = force
  }

  /// The line naming the reports written into `directory`.
  /// Refuses an objective naming a metric, or a subject, that the sweep's summary will not have: found now,
  /// not after the whole sweep has run.
  func checkObjective() throws(CommandFailure) {
    guard let objective = sweep.specification.objective, let places = sweep.specification.objectivePlaces else {
      return
    }
    let keys = RunSummary.Accumulator(subjects: RunSummary.Subjects(sweep.configurations[0])).rowKeys
    func refuse(_ place: ScenarioError, _ message: String, _ candidates: [String], _ word: String) -> CommandFailure {
      SweepSelectionSetup.refusal(place, message, word: word, among: candidates)
    }
    let metrics = Array(Set(keys.map(\.metric))).sorted()
    guard metrics.contains(objective.metric) else {
      throw refuse(places.metric, "no metric \(objective.metric) in summary.csv", metrics, objective.metric)
    }
    if let widget = objective.widget, let place = places.widget,
      !keys.contains(where: { $0.metric == objective.metric && $0.widget == widget })
    {
      let subjects = keys.filter { $0.metric == objective.metric }.map(\.widget)
      throw refuse(
        place, "\(objective.metric) has no row for \(widget); it has \(subjects.joined(separator: ", "))", subjects,
        widget)
    }
  }

  public static func reportsLine(_ directory: String, baselinePoint: Int?) -> String {
    "reports: \(directory)/ (sweep.csv, sweep_summary.csv, \(SweepComparison.file)"
      + "\(baselinePoint == nil ? "" : ", sweep_baseline.csv"))"
  }

  /// What a finished sweep (or a merge) prints: each point's headlines, the points by what the phone pays,
  /// the best point, the `assumptions` the figures rest on, the comparison table of `sweep_compare.md`, and
  /// where the reports are.
  static func finishedLines(
    rows: [SweepSummaryRow], points: [SweepPointRow], keys: [String], objective: SweepManifest.Objective?,
    directory: String, baselinePoint: Int?, assumptions: [String] = []
  ) -> [String] {
    var lines = SweepHeadlines.lines(rows: rows, points: points, keys: keys, objective: objective)
    lines += assumptions
    let table = SweepComparison.phoneTable(rows: rows, points: points, keys: keys)
    if !table.isEmpty {
      // Only what the table shows: one replication per point has no interval over replications.
      let means = SweepComparison.hasReplicationIntervals(rows) ? "means [95% CI]" : "means, one replication: no CI"
      lines.append("comparison (\(SweepComparison.file), Markdown; \(means); per phone and day):")
      lines += firstRows(of: table)
    }
    let capacity = SweepComparison.capacityTable(rows: rows, points: points, keys: keys)
    if !capacity.isEmpty {
      lines.append(
        "the servers per second for the whole fleet (\(SweepComparison.file); received and sent apart, each "
          + "figure [its interval, as the last column says]):")
      lines += firstRows(of: capacity)
    }
    lines.append(reportsLine(directory, baselinePoint: baselinePoint))
    return lines
  }

  /// A table's header, its rule and the first points' rows, as the headlines show the first points, and
  /// where the rest are.
  static func firstRows(of table: [String]) -> [String] {
    var lines = Array(table.prefix(2 + SweepHeadlines.maximumPointsShown))
    if table.count > 2 + SweepHeadlines.maximumPointsShown {
      lines.append("(\(table.count - 2 - SweepHeadlines.maximumPointsShown) more rows in \(SweepComparison.file))")
    }
    return lines
  }

  /// Runs the tasks not yet in the journal and, for a whole sweep, writes its reports; returns whether it did
  /// (false for a shard: `widgetsim merge` writes them). Fails with exit 2 on bad input or another sweep's
  /// files in the folder, 1 on a write failure, and `stop`'s status when stopped (the journal keeps the
  /// finished tasks).
  @discardableResult
  public func run(console: Console, stop: StopRequest) throws(CommandFailure) -> Bool {
    try checkBaselineAndShard()
    if let problem = OutputFolder.problem(directory) { throw .badInput(problem) }
    try checkObjective()
    let selectionSetup = try SweepSelectionSetup.make(sweep)
    try checkSelection(selectionSetup)
    // The folder is checked (and with --force emptied) under its lock: no other command writes there meanwhile.
    let lock = try OutputFolder.prepare(directory)
    defer { withExtendedLifetime(lock) {} }
    try checkFolder()
    announceWork(console: console)
    stop.listen()
    return try CommandFailure.mapping(status: 1) {
      let (journal, contents) = try openJournal(console: console)
      let done = contents.done
      try SweepOutput.writePoints(plan, to: directory)
      let manifest = SweepOutput.manifest(sweep, plan: plan, overrides: overrides)
      try manifest.write(to: directory)
      if let selectionSetup {
        return try runSelection(
          selectionSetup, journal: journal, done: done, manifest: manifest, console: console, stop: stop)
      }
      let mine = plan.tasks(shard: shard?.pair)
      if !quiet { announceTasks(mine, done: done, console: console) }
      let line = quiet ? nil : ProgressLine.make(days: 1, replications: 1, console: console)
      var progress: (@Sendable (Int, Int) -> Void)?
      if let line {
        progress = { finished, total in line.tasks(finished, of: total) }
      }
      let finished = try SweepRunner.run(
        plan, shard: shard?.pair, jobs: jobs ?? console.cores, journal: journal, done: done,
        interrupted: stop.isRequested, progress: progress)
      line?.finish()
      let remaining = mine.filter { finished[$0] == nil }.count
      if remaining > 0 {
        throw CommandFailure(
          status: stop.exitStatus(),
          message: "interrupted: \(mine.count - remaining) of \(mine.count) tasks done and recorded in \(directory)/"
            + "\(SweepOutput.journal); run the same command again to resume")
      }
      if shard != nil {
        if !quiet { console.print("shard done: \(directory)/ (combine the shard folders with `widgetsim merge`)") }
        return false
      }
      try writeReports(finished, objective: manifest.objective, console: console)
      return true
    }
  }

  /// Refuses a `--baseline-point` the sweep does not have, and more shards than it has tasks.
  func checkBaselineAndShard() throws(CommandFailure) {
    if let baselinePoint, !plan.points.indices.contains(baselinePoint) {
      throw .badInput("--baseline-point \(baselinePoint): the sweep has points 0-\(plan.points.count - 1)")
    }
    if let shard, shard.count > plan.tasks.count {
      throw .badInput(
        "--shard \(shard.index)/\(shard.count): the sweep has \(plan.tasks.count) tasks (points x replications) to "
          + "split, so N may be at most \(plan.tasks.count)")
    }
  }

  /// Unless quiet, the estimated work of a long sweep, said before it starts.
  func announceWork(console: Console) {
    let events = sweep.events
    // A selection's work depends on what its rounds find; its own line says how it runs.
    if !quiet && events >= ScenarioLimits.announcedEvents && sweep.specification.selection == nil {
      console.error(
        "estimated work: \(WorkEstimate.scientific(events)) events (measured rates) over \(plan.tasks.count) tasks, "
          + WorkEstimate.duration(events: events, cores: jobs ?? console.cores) + "\n")
    }
  }

  /// Opens (or starts) the folder's journal of finished tasks, warning of records that fail their checksum
  /// (those tasks run again). Fails with exit 2 when the journal is the problem (another sweep's, too large),
  /// 1 when it cannot be written.
  func openJournal(console: Console) throws(CommandFailure) -> (SweepJournal, SweepJournal.Contents) {
    let opened: (SweepJournal, SweepJournal.Contents)
    do {
      opened = try SweepJournal.open(
        path: "\(directory)/\(SweepOutput.journal)", identity: plan.identity, taskCount: plan.tasks.count)
    } catch {
      throw CommandFailure(status: error.isBadInput ? 2 : 1, message: "error: \(error)")
    }
    let contents = opened.1
    if !contents.corrupt.isEmpty {
      console.error(
        "warning: \(directory)/\(SweepOutput.journal): the records of \(contents.corrupt.count) task(s) fail their "
          + "checksum (first: task \(contents.corrupt[0])); they run again\n")
    }
    return opened
  }

  /// The sweep's size before it runs: points x replications = tasks, this shard's tasks and those the
  /// journal already has.
  func announceTasks(_ mine: [Int], done: [Int: [MetricValue]], console: Console) {
    let resumed = mine.filter { done[$0] != nil }.count
    let counts = Set(plan.configurations.map(\.replications))
    let replications =
      counts.count == 1
      ? "\(WorkEstimate.counted(counts.first ?? 0, "replication"))"
      : "\(counts.min() ?? 0)-\(counts.max() ?? 0) replications"
    console.print(
      "\(sweep.name): \(WorkEstimate.counted(plan.points.count, "point")) x \(replications) = "
        + "\(WorkEstimate.counted(plan.tasks.count, "task"))"
        + (shard.map { ", shard \($0.index)/\($0.count): \(mine.count) tasks" } ?? "")
        + (resumed > 0 ? ", \(resumed) already done (resuming)" : ""))
  }

  /// Writes a whole sweep's reports from every task's values and, unless quiet, prints what they say.
  func writeReports(_ values: [Int: [MetricValue]], objective: SweepManifest.Objective?, console: Console)
    throws(AtomicFile.WriteError)
  {
    let points: [SweepPointRow] = plan.points.map { ($0.index, $0.label, $0.assignments.map(\.value)) }
    let rows = try SweepReports.write(
      points: points, keys: plan.keys, tasks: plan.tasks, values: values, baseline: baselinePoint, to: directory)
    if !quiet {
      let lines = SweepExecution.finishedLines(
        rows: rows, points: points, keys: plan.keys, objective: objective, directory: directory,
        baselinePoint: baselinePoint, assumptions: FigureAssumptions.sweepLines(plan.configurations))
      for line in lines { console.print(line) }
    }
  }

  /// With ``force``, removes another sweep's journal and reports; otherwise refuses (exit 2) reports that
  /// no journal says are this sweep's to resume.
  func checkFolder() throws(CommandFailure) {
    let sweepFiles =
      SweepReports.files + ["sweep_baseline.csv", SweepSelectionReport.file, SweepOutput.points, SweepManifest.file]
    if force {
      for name in sweepFiles + [SweepOutput.journal] { AtomicFile.remove("\(directory)/\(name)") }
    } else if ExistingReports.find([SweepOutput.journal], in: directory).isEmpty {
      // Without a journal there is nothing to resume: reports here are some other sweep's.
      let found = ExistingReports.find(sweepFiles, in: directory)
      if !found.isEmpty { throw .badInput(ExistingReports.refusal(found, in: directory)) }
    }
  }
}
