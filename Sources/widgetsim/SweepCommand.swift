import ArgumentParser
import CommandSupport
import Runs
import Sweeps

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

  @Option(
    help: ArgumentHelp(
      "With --report: the users the server chart's second axis counts requests for (default: fleet.represents).",
      valueName: "N"))
  var users: Double?

  func validate() throws { try refuse(SweepExecution.problem(jobs: jobs, shard: shard, report: report, users: users)) }

  func run() throws {
    try SweepExecution(
      file: file, scenario: scenario.arguments, commonRandomNumbers: !independentStreams, directory: out, jobs: jobs,
      baselinePoint: baselinePoint, shard: shard, quiet: quiet, force: force
    ).runForCommand(console: .standard, stop: Interruption.stopRequest, report: report, users: users)
  }
}
