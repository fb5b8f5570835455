import Reports
import WidgetModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What writing a run's reports costs, apart from simulating it: a scenario's replications are simulated
/// first, then every report of the run (each replication added to the summary, then the CSV files, the
/// manifest) is written into a scratch folder and timed. Short runs (a CI gate, `compare`, a quick look)
/// spend as long writing as simulating, so this is a figure users feel.
public enum ReportWritingBenchmark {
  /// Days and replications of the run written, as `widgetsim run` of a scenario file gives them by default.
  public static let days = 7
  public static let replications = 5

  /// Report rows (lines of every CSV file, headers left out) written per second for `scenario`'s run with
  /// its seed replaced by `seed`.
  public static func rowsPerSecond(scenario: ScenarioConfiguration, seed: UInt64) -> Double {
    var configuration = scenario
    configuration.seed = seed
    configuration.days = days
    configuration.warmupDays = 0
    configuration.replications = replications
    let results = ScenarioRunner.run(configuration)
    let directory = scratchFolder()
    let metadata = RunMetadata(
      widgetsimVersion: "bench", scenarioFile: "\(scenario.name).yaml", scenarioText: "", overrides: [],
      wallTimeSeconds: 0)
    let stopwatch = Stopwatch()
    let summary = try? RunReports.write(
      configuration: configuration, results: results, metadata: metadata, to: directory)
    let seconds = stopwatch.elapsedNanoseconds / 1e9
    precondition(summary != nil, "the report-writing benchmark could not write its scratch folder \(directory)")
    keepAlive(summary?.rows.count ?? 0)
    var rows = 0
    for file in ExistingReports.find(ExistingReports.runFiles, in: directory) {
      if file.hasSuffix(".csv"),
        let text = try? TextFile.read("\(directory)/\(file)", limit: InputLimits.chartedReportBytes)
      {
        rows += Swift.max(0, text.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } - 1)
      }
      AtomicFile.remove("\(directory)/\(file)")
    }
    rmdir(directory)
    return Double(rows) / seconds
  }

  /// The start of every scratch folder's name: `widgetsim-bench-reports-<pid>-`.
  static var scratchPrefix: String { "widgetsim-bench-reports-\(getpid())-" }

  /// A new, empty folder of its own under `$TMPDIR` (`mkdtemp`): runs of the benchmark at the same time (tests
  /// run in parallel) never share one.
  static func scratchFolder() -> String {
    var template = Array("\(ReplicationCostBenchmark.scratchRoot)/\(scratchPrefix)XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
    precondition(
      made, "the report-writing benchmark could not make a scratch folder under \(ReplicationCostBenchmark.scratchRoot)"
    )
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
