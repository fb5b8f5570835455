import CommandSupport
import Reports
import Runs
import ScenarioFiles
import WidgetModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a replication costs beyond its device: `widgetsim run` of N replications of one device against one
/// replication of N devices, the same simulated work, both on one thread into a scratch folder with every
/// report written, as users meet them. The figure is the ratio of their times (1 when a replication costs
/// no more than a device; the goal of issue "Performance II" is at most 1.2).
public enum ReplicationCostBenchmark {
  /// N (replications, and devices) of the standard suite and of a quick run.
  public static let standardCount = 1_000
  public static let quickCount = 20
  /// Days each run simulates (`--days`), as the figures in docs/performance.md were measured.
  public static let days = 7

  /// Time of `count` replications of one device over time of one replication of `count` devices, for
  /// `scenario` with its seed replaced by `seed`.
  public static func ratio(scenario: ScenarioConfiguration, count: Int, seed: UInt64) -> Double {
    let replications = seconds(scenario, replications: count, devices: 1, seed: seed)
    let devices = seconds(scenario, replications: 1, devices: count, seed: seed)
    return replications / devices
  }

  /// Wall time of one `run`, on one thread, into a scratch folder of this process (emptied after).
  static func seconds(_ scenario: ScenarioConfiguration, replications: Int, devices: Int, seed: UInt64) -> Double {
    var configuration = scenario
    configuration.seed = seed
    configuration.days = days
    configuration.warmupDays = 0
    configuration.replications = replications
    configuration.fleet.devices = devices
    let directory = "\(scratchRoot)/widgetsim-bench-\(getpid())"
    let execution = RunExecution(
      LoadedScenario(configuration: configuration, file: "\(scenario.name).yaml", text: ""), overrides: [],
      directory: directory, jobs: 1, quiet: true, existing: .replace, version: "bench")
    let silent = Console(output: { _ in }, error: { _ in })
    let stopwatch = Stopwatch()
    let summary = try? execution.run(console: silent, stop: .never)
    let elapsed = stopwatch.elapsedNanoseconds / 1e9
    precondition(summary != nil, "the replication-cost benchmark could not write its scratch folder \(directory)")
    keepAlive(summary?.rows.count ?? 0)
    for file in ExistingReports.find(ExistingReports.runFiles + [OutputFolder.lockName], in: directory) {
      AtomicFile.remove("\(directory)/\(file)")
    }
    rmdir(directory)
    return elapsed
  }

  /// `TMPDIR`, or /tmp.
  static var scratchRoot: String {
    guard let value = getenv("TMPDIR"), value.pointee != 0 else { return "/tmp" }
    return String(cString: value)
  }
}
