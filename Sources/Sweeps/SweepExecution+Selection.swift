import CommandSupport
import Reports
import ScenarioFiles
import SimulationEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SweepExecution {
  /// Refuses what a selection cannot run with: shards (its rounds decide what runs next) and a baseline
  /// point (its designs take different numbers of replications).
  func checkSelection(_ setup: SweepSelectionSetup?) throws(CommandFailure) {
    guard setup != nil else { return }
    if shard != nil {
      throw .badInput("--shard: a sweep with select runs in rounds that each decide the next; run it whole")
    }
    if baselinePoint != nil {
      throw .badInput(
        "--baseline-point: a sweep with select gives its designs different numbers of replications; the "
          + "selection compares them (selection.csv)")
    }
  }

  /// Runs the selection's rounds into the journal, then writes the sweep's reports from the replications the
  /// procedure used, with `selection.csv`, and prints the verdict. Interrupted, it fails with `stop`'s status
  /// (the journal keeps every finished replication, and the same command resumes).
  func runSelection(
    _ setup: SweepSelectionSetup, journal: SweepJournal, done: [Int: [MetricValue]], manifest: SweepManifest,
    console: Console, stop: StopRequest
  ) throws -> Bool {
    if overrides.contains(where: { $0.hasPrefix("replications=") }) {
      console.error(
        "warning: replications (--replications, --set replications=): a sweep with select decides each design's "
          + "replications (select.first, then rounds up to select.max_replications); ignored\n")
    }
    if !quiet {
      let resumed = done.isEmpty ? "" : ", \(done.count) replications already done (resuming)"
      console.print(
        "\(sweep.name): selecting among \(WorkEstimate.counted(plan.points.count, "design")), \(setup.problem.firstStage) "
          + "replications each first, at most \(setup.problem.maximumReplications)\(resumed)")
    }
    let start = SweepExecution.now()
    let rounds = SweepSelectionRounds(plan: plan, setup: setup)
    let (selection, values) = try rounds.run(
      journal: journal, done: done, jobs: jobs ?? console.cores, interrupted: stop.isRequested)
    guard selection.finished else {
      throw CommandFailure(
        status: stop.exitStatus(),
        message: "interrupted: \(values.count) replications done and recorded in \(directory)/"
          + "\(SweepOutput.journal); run the same command again to resume")
    }
    let seconds = SweepExecution.now() - start
    let used = plan.tasks.indices.filter { plan.tasks[$0].replication < selection.replications[plan.tasks[$0].point] }
    let points: [SweepPointRow] = plan.points.map { ($0.index, $0.label, $0.assignments.map(\.value)) }
    let set = ReportSet(directory: directory)
    let rows = try SweepReports.write(
      points: points, keys: plan.keys, tasks: used.map { plan.tasks[$0] },
      values: Dictionary(
        uniqueKeysWithValues: used.enumerated().compactMap { offset, task in values[task].map { (offset, $0) } }),
      baseline: nil, into: set)
    let names = plan.points.map { $0.label.isEmpty ? $0.settings : $0.label }
    let report = SweepSelectionReport(setup: setup, selection: selection, names: names, values: values)
    try set.write(report.csv, to: SweepSelectionReport.file)
    try set.commit()
    if !quiet {
      var lines = SweepExecution.finishedLines(
        rows: rows, points: points, keys: plan.keys, objective: manifest.objective, directory: directory,
        baselinePoint: nil)
      // The selection's verdict stands for the best point: the lowest mean alone would ignore the constraints.
      lines.removeAll { $0.hasPrefix("best point by") }
      lines.insert(contentsOf: report.lines(seconds: seconds), at: max(0, lines.count - 1))
      for line in lines { console.print(line) }
    }
    return true
  }

  /// Seconds on a monotonic clock.
  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
