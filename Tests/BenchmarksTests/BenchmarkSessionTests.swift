import CommandSupport
import Reports
import TestSupport
import Testing

@testable import Benchmarks

@Suite("A bench session as the command runs it")
struct BenchmarkSessionTests {
  static let tiny = BenchmarkSuite(repetitions: 1, holds: 1_000, draws: 1_000, modelEvents: 1_000)

  /// Runs `session` and returns what it printed on standard output and standard error.
  static func printed(_ session: BenchmarkSession) throws(CommandFailure) -> (output: String, error: String) {
    let output = SynchronizedText()
    let error = SynchronizedText()
    try session.run(console: Console(output: { output.append($0) }, error: { error.append($0) }))
    return (output.text, error.text)
  }

  @Test("csv: a header and one row per result; --out holds the same text")
  func csvAndOut() throws {
    let out = TestFiles.temporaryDirectory() + "/bench.csv"
    let session = BenchmarkSession(suite: Self.tiny, only: ["generator_uniform"], out: out, format: .csv)
    let (output, error) = try Self.printed(session)
    let lines = output.split(separator: "\n")
    #expect(lines.first == "benchmark,parameter,value,unit")
    #expect(lines.count > 1 && lines.dropFirst().allSatisfy { $0.hasPrefix("generator_uniform,") })
    #expect(error.isEmpty)
    #expect(try TestFiles.read(out) == output)
  }

  @Test("against a baseline: the verdicts beside the CSV on standard error; a regression exits 1 without a message")
  func baselineGate() throws {
    let directory = TestFiles.temporaryDirectory()
    // A stored time no run can reach: the row regresses.
    let stored = "\(directory)/fast.csv"
    try AtomicFile.write("benchmark,parameter,value,unit\ngenerator_uniform,taus2,0.000001,ns_per_draw\n", to: stored)
    var session = BenchmarkSession(suite: Self.tiny, only: ["generator_uniform"], baseline: stored, format: .csv)
    let failure = try #require(throws: CommandFailure.self) { try Self.printed(session) }
    #expect(failure == CommandFailure(status: 1))

    session.tolerance = BenchmarkTolerance(fraction: 1e30)
    let (output, error) = try Self.printed(session)
    #expect(output.hasPrefix("benchmark,parameter,value,unit\n"))
    #expect(!error.isEmpty, "the verdicts go to standard error")
  }

  @Test("unreadable inputs fail with exit 2 before measuring, naming the option")
  func badInputs() throws {
    let directory = TestFiles.temporaryDirectory()
    let noBaseline = BenchmarkSession(suite: Self.tiny, only: ["generator_uniform"], baseline: "\(directory)/none.csv")
    let baseline = try #require(throws: CommandFailure.self) { try Self.printed(noBaseline) }
    #expect(baseline.status == 2 && baseline.message.hasPrefix("error: --baseline "))

    let noScenarios = BenchmarkSession(suite: Self.tiny, only: ["sweep_points"], scenarios: "\(directory)/none")
    let scenarios = try #require(throws: CommandFailure.self) { try Self.printed(noScenarios) }
    #expect(scenarios.status == 2 && scenarios.message.hasPrefix("error: "))

    let badOut = BenchmarkSession(suite: Self.tiny, only: ["generator_uniform"], out: "\(directory)/no/such/file.csv")
    let out = try #require(throws: CommandFailure.self) { try Self.printed(badOut) }
    #expect(out.status == 2 && out.message.hasPrefix("error: --out "))
  }
}
