import ArgumentParser
import Benchmarks

/// `widgetsim bench`: the project's benchmark suite.
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure the simulator's speed: event-set hold model, random generators, distribution draws.",
    discussion: """
      Figures mean something only from a release build: run `swift run -c release widgetsim bench`.
      Every figure is the median of --repetitions runs; --format table also shows min and max.
      """
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case csv
    case table
  }

  @Option(help: "Output format: csv (benchmark,parameter,value,unit) or table.")
  var format: Format = .table

  @Option(help: "Repetitions of every measurement (the median is reported).")
  var repetitions: Int?

  @Flag(help: "A short smoke run with small counts; figures are only indicative.")
  var quick = false

  @Option(
    help: ArgumentHelp(
      "Run only these benchmarks (repeatable): \(BenchmarkSuite.names.joined(separator: ", ")).", valueName: "name"))
  var only: [String] = []

  func validate() throws {
    if let repetitions, repetitions < 1 {
      throw ValidationError("--repetitions must be at least 1, got \(repetitions)")
    }
    for name in only where !BenchmarkSuite.names.contains(name) {
      throw ValidationError(
        "--only \(name): no such benchmark; expected one of \(BenchmarkSuite.names.joined(separator: ", "))")
    }
  }

  func run() throws {
    if !BenchmarkSuite.isOptimizedBuild {
      Console.error(
        "warning: this is a debug build; its figures are not meaningful. "
          + "Use `swift run -c release widgetsim bench`.\n")
    }
    var suite = quick ? BenchmarkSuite.quick : BenchmarkSuite.standard
    if let repetitions { suite.repetitions = repetitions }
    let results = suite.run(only: only.isEmpty ? nil : Set(only))
    switch format {
    case .csv: print(BenchmarkTable.csv(results), terminator: "")
    case .table: print(BenchmarkTable.text(results), terminator: "")
    }
  }
}
