import ArgumentParser
import Reports
import ScenarioFiles
import Sweeps
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `widgetsim sweep`: run a grid of scenario variants with replications.
struct SweepCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sweep",
    abstract: "Run every point of a sweep (a grid of scenario variants) with replications.",
    discussion: """
      FILE is a scenario with a `sweep` section, or a file with `base: SCENARIO` and `sweep`. Every point is
      checked before any runs. Finished (point, replication) tasks are recorded in sweep-journal.txt as they
      complete: after Ctrl-C, kill -9 or a power cut, rerunning the same command resumes. --shard K/N runs a
      share of the tasks; `widgetsim merge` then combines shard folders into the reports.
      """
  )

  @Argument(help: "The sweep file.")
  var file: String

  @OptionGroup var scenario: ScenarioOptions

  @Option(help: "Folder for the reports (default: Reports/<scenario name>-sweep).")
  var out: String?

  @Option(help: "Threads to spread tasks over (default: all cores). Results are the same for any value.")
  var jobs: Int?

  @Flag(help: "Give each point its own random streams instead of common random numbers (for comparison).")
  var independentStreams = false

  @Option(help: "Also write sweep_baseline.csv: every point's paired difference from this point.")
  var baselinePoint: Int?

  @Option(help: "Run only share K of N (0-based), e.g. 0/4; combine the shard folders with `widgetsim merge`.")
  var shard: String?

  @Flag(help: "Print nothing but errors.")
  var quiet = false

  @Flag(help: "Start over in a folder holding another sweep's journal or reports, replacing them.")
  var force = false

  @Flag(help: "Also write report.html: each headline metric against the swept parameter (see `widgetsim report`).")
  var report = false

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
    if let shard, SweepCommand.parseShard(shard) == nil {
      throw ValidationError("--shard expects K/N with 0 <= K < N, e.g. 0/4; got \(shard)")
    }
  }

  static func parseShard(_ text: String) -> (index: Int, count: Int)? {
    let parts = text.split(separator: "/")
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0, index >= 0, index < count
    else { return nil }
    return (index, count)
  }

  func run() throws {
    let sweep: LoadedSweep
    do {
      sweep = try SweepLoader.load(
        path: file, overrides: try scenario.scenarioOverrides(), limits: scenario.limits)
    } catch {
      Console.error("error: \(error)\n")
      throw ExitCode(2)
    }
    let plan = SweepPlan(sweep: sweep, overrides: scenario.overrides, commonRandomNumbers: !independentStreams)
    if let baselinePoint, !plan.points.indices.contains(baselinePoint) {
      Console.error("error: --baseline-point \(baselinePoint): the sweep has points 0-\(plan.points.count - 1)\n")
      throw ExitCode(2)
    }
    let directory = out ?? "Reports/\(RunReports.folderName(for: sweep.name))-sweep"
    let shard = shard.flatMap(SweepCommand.parseShard)
    let journalPath = "\(directory)/\(SweepOutput.journal)"
    let sweepFiles = SweepReports.files + ["sweep_baseline.csv", SweepOutput.points]
    if force {
      for name in sweepFiles + [SweepOutput.journal] { AtomicFile.remove("\(directory)/\(name)") }
    } else if ExistingReports.find([SweepOutput.journal], in: directory).isEmpty {
      // Without a journal there is nothing to resume: reports here are some other sweep's.
      let found = ExistingReports.find(sweepFiles, in: directory)
      if !found.isEmpty {
        Console.error("error: " + ExistingReports.refusal(found, in: directory) + "\n")
        throw ExitCode(2)
      }
    }
    if !quiet && sweep.widgetDays >= ScenarioLimits.announcedWidgetDays {
      let cores = jobs ?? Console.cores
      Console.error(
        "estimated work: \(WorkEstimate.scientific(sweep.widgetDays)) widget-days over \(plan.tasks.count) tasks, "
          + WorkEstimate.duration(widgetDays: sweep.widgetDays, cores: cores) + "\n")
    }
    Interruption.install()
    do {
      try AtomicFile.createDirectory(directory)
      AtomicFile.removeStaleTemporaries(in: directory)
      let (journal, done): (SweepJournal, [Int: [MetricValue]])
      do {
        (journal, done) = try SweepJournal.open(
          path: journalPath, fingerprint: plan.fingerprint, taskCount: plan.tasks.count)
      } catch {
        Console.error("error: \(error)\n")
        throw ExitCode(2)
      }
      try SweepOutput.writePoints(plan, to: directory)
      let mine = plan.tasks(shard: shard)
      if !quiet {
        let resumed = mine.filter { done[$0] != nil }.count
        print(
          "\(sweep.name): \(plan.points.count) points x replications = \(plan.tasks.count) tasks"
            + (shard.map { ", shard \($0.index)/\($0.count): \(mine.count) tasks" } ?? "")
            + (resumed > 0 ? ", \(resumed) already done (resuming)" : ""))
      }
      let line = quiet ? nil : ProgressLine.make(days: 1, replications: 1)
      var progress: (@Sendable (Int, Int) -> Void)?
      if let line {
        progress = { finished, total in line.tasks(finished, of: total) }
      }
      let interrupted: @Sendable () -> Bool = { Interruption.requested }
      let finished = try SweepRunner.run(
        plan, shard: shard, jobs: jobs ?? Console.cores, journal: journal, done: done, interrupted: interrupted,
        progress: progress)
      line?.finish()
      let remaining = mine.filter { finished[$0] == nil }.count
      if remaining > 0 {
        Console.error(
          "interrupted: \(mine.count - remaining) of \(mine.count) tasks done and recorded in \(directory)/"
            + "\(SweepOutput.journal); run the same command again to resume\n")
        throw ExitCode(Interruption.exitCode)
      }
      if shard != nil {
        if !quiet { print("shard done: \(directory)/ (combine the shard folders with `widgetsim merge`)") }
        return
      }
      try SweepReports.write(
        points: plan.points.map { ($0.index, $0.assignments.map(\.value)) }, keys: plan.keys, tasks: plan.tasks,
        values: finished, baseline: baselinePoint, to: directory)
      if !quiet {
        print(
          "reports: \(directory)/ (sweep.csv, sweep_summary.csv\(baselinePoint == nil ? "" : ", sweep_baseline.csv"))")
      }
      if report {
        let page = try ReportCommand.write(directory)
        if !quiet { print("report: \(page)") }
      }
    } catch let exit as ExitCode {
      throw exit
    } catch {
      Console.error("error: \(error)\n")
      throw ExitCode(1)
    }
  }
}

/// `widgetsim merge`: combine sweep shard folders into the reports of the whole sweep.
struct MergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Combine the folders of a sharded sweep (--shard K/N) into the sweep's reports."
  )

  @Argument(help: "The shard folders.")
  var folders: [String]

  @Option(help: "Folder for the reports (default: the first shard folder).")
  var out: String?

  @Option(help: "Also write sweep_baseline.csv against this point.")
  var baselinePoint: Int?

  @Flag(help: "Replace the sweep reports already in the output folder (otherwise widgetsim refuses).")
  var force = false

  func validate() throws {
    if folders.isEmpty { throw ValidationError("give at least one shard folder") }
  }

  func run() throws {
    do {
      let (keys, points, tasks) = try SweepOutput.readPoints(from: folders[0])
      var fingerprint: String?
      var values: [Int: [MetricValue]] = [:]
      for folder in folders {
        let journal = try SweepJournal.load(path: "\(folder)/\(SweepOutput.journal)")
        if let fingerprint, fingerprint != journal.fingerprint {
          Console.error("error: \(folder) holds a different sweep than \(folders[0])\n")
          throw ExitCode(2)
        }
        fingerprint = journal.fingerprint
        values.merge(journal.done) { first, _ in first }
      }
      let missing = tasks.indices.filter { values[$0] == nil }
      guard missing.isEmpty else {
        Console.error(
          "error: \(missing.count) of \(tasks.count) tasks are in no shard folder (first: task \(missing[0]))\n")
        throw ExitCode(1)
      }
      let directory = out ?? folders[0]
      let found = ExistingReports.find(SweepReports.files + ["sweep_baseline.csv"], in: directory)
      if !force && !found.isEmpty {
        Console.error("error: " + ExistingReports.refusal(found, in: directory) + "\n")
        throw ExitCode(2)
      }
      try AtomicFile.createDirectory(directory)
      try SweepReports.write(
        points: points, keys: keys, tasks: tasks, values: values, baseline: baselinePoint, to: directory)
      print(
        "reports: \(directory)/ (sweep.csv, sweep_summary.csv\(baselinePoint == nil ? "" : ", sweep_baseline.csv"))")
    } catch let exit as ExitCode {
      throw exit
    } catch {
      Console.error("error: \(error)\n")
      throw ExitCode(2)
    }
  }
}
