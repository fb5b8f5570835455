import ArgumentParser
import Benchmarks
import CommandSupport

/// `widgetsim bench`: the project's benchmark suite, and the gate against a stored baseline.
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract:
      "Measure the simulator's speed (event set, generators, distributions, model, fleet, sweep); gate on a baseline.",
    discussion: """
      Run from a release build (`swift run -c release widgetsim bench`). Each figure is the median of
      --repetitions runs (--format table adds min and max) of the scenario files in --scenarios. With
      --baseline FILE (a CSV this command wrote): exit 1 if a row is worse than its stored median by more than
      --tolerance, 0 otherwise, 2 if the baseline cannot be read.
      """
  )

  @Option(help: "Output format: csv (benchmark,parameter,value,unit) or table.")
  var format: BenchmarkSession.Format = .table

  @Option(help: "Repetitions of every measurement (the median is reported).")
  var repetitions: Int?

  @Flag(help: "A short smoke run with small counts; figures are only indicative.")
  var quick = false

  @Option(
    help: ArgumentHelp(
      "Run only these benchmarks (repeatable): \(BenchmarkSuite.names.joined(separator: ", ")).", valueName: "name"))
  var only: [String] = []

  @Option(
    help: ArgumentHelp(
      "Directory of the benchmark scenarios (\(BenchmarkScenarios.modelFiles.joined(separator: ", ")), "
        + "\(BenchmarkScenarios.fleetFile), \(BenchmarkScenarios.sweepFile)).", valueName: "dir"))
  var scenarios: String = BenchmarkScenarios.defaultDirectory

  @Option(
    help: ArgumentHelp(
      "Compare with this stored bench CSV; exit 1 on a regression beyond --tolerance.", valueName: "file"))
  var baseline: String?

  @Option(help: "Allowed change of a median against --baseline before it is a regression: 10% or 0.1.")
  var tolerance: String = "10%"

  @Option(
    help: ArgumentHelp(
      "What --baseline compares with the stored median: this run's median, or its best repetition (steadier on a "
        + "shared machine).", valueName: "median|best"))
  var statistic: BenchmarkStatistic = .median

  @Option(help: ArgumentHelp("Also write the CSV to this file (atomically).", valueName: "file"))
  var out: String?

  @Option(
    help: ArgumentHelp(
      "Also write the rates (bigger is better) as JSON for github-action-benchmark's customBiggerIsBetter tool.",
      valueName: "file"))
  var json: String?

  @Option(
    help: ArgumentHelp(
      "Also write the times per item and ratios of times (smaller is better) as JSON for its customSmallerIsBetter tool.",
      valueName: "file"))
  var jsonSmaller: String?

  /// The benchmarks these options ask for.
  var request: BenchmarkRequest {
    BenchmarkRequest(
      format: format, repetitions: repetitions, quick: quick, only: only, scenarios: scenarios, baseline: baseline,
      tolerance: tolerance, statistic: statistic, out: out, json: json, jsonSmaller: jsonSmaller)
  }

  func validate() throws { try refuse(request.problem()) }

  func run() throws {
    try request.run(console: .standard)
  }
}

extension BenchmarkSession.Format: ExpressibleByArgument {}
extension BenchmarkStatistic: ExpressibleByArgument {}
