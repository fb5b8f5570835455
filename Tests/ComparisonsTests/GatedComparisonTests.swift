import CommandSupport
import Reports
import TestSupport
import Testing

@testable import Comparisons

@Suite("Comparing as a command does")
struct GatedComparisonTests {
  @Test("docs/gates.md's check example: printed as written (the folder aside), compare.csv written, exit 1")
  func readmeExample() throws {
    let expected = try DocumentedExample.block("check-example", in: "docs/gates.md")

    // A run of the candidate scenario, in a temporary folder.
    let run = try runTable("Scenarios/regression/candidate.yaml")
    let directory = String(run.path.dropLast("/replications.csv".count))
    let baseline = try GatedComparison.table(Repository.path("Scenarios/regression/baseline.csv"))
    let candidate = try GatedComparison.table(directory)
    let output = SynchronizedText()
    let console = Console(output: { output.append($0) }, error: { _ in Issue.record("nothing on standard error") })
    let failure = try #require(throws: CommandFailure.self) {
      try GatedComparison().compare(
        baseline: baseline, candidate: candidate, writingInto: directory, replacing: false, console: console)
    }
    #expect(failure == CommandFailure(status: 1), "the verdicts were printed: no message")
    let printed = output.text.replacing(directory, with: "Reports/regression-candidate")
      .replacing(Repository.path(""), with: "")
    #expect(printed == expected)
    #expect(try TestFiles.read("\(directory)/compare.csv").hasPrefix("metric,widget,"))

    // compare.csv is there now: kept unless replacing.
    let refused = try #require(throws: CommandFailure.self) {
      try GatedComparison().compare(
        baseline: baseline, candidate: candidate, writingInto: directory, replacing: false, console: console)
    }
    #expect(refused.status == 2 && refused.message.contains("already holds reports (compare.csv)"))
  }

  @Test("gates: none with --no-gates, the defaults without --gate, otherwise each parsed in order")
  func gateArguments() throws {
    #expect(try GatedComparison.gates([], noGates: true).isEmpty)
    #expect(try GatedComparison.gates([], noGates: false) == Gate.defaults)
    #expect(
      try GatedComparison.gates(["joules_per_day:+5%", "staleness_p95@headlines:+60"], noGates: false)
        == [try Gate(parsing: "joules_per_day:+5%"), try Gate(parsing: "staleness_p95@headlines:+60")])
    #expect(throws: ComparisonError.self) { try GatedComparison.gates(["joules_per_day:5%"], noGates: false) }
  }

  @Test("a bad --gate is named once: \"--gate 'x': ...\", not \"--gate gate 'x'\"")
  func gateProblemWording() throws {
    let problem = try #require(
      GatedComparison.problem(alpha: 0.05, gates: ["joules_per_day:5%"], noGates: false, junit: nil))
    #expect(problem.hasPrefix("--gate 'joules_per_day:5%': the tolerance must start with +"))
    #expect(!problem.contains("--gate gate"))
  }

  @Test("an unreadable run is bad input, exit 2")
  func unreadable() {
    let directory = TestFiles.temporaryDirectory()
    let failure = #expect(throws: CommandFailure.self) { try GatedComparison.table("\(directory)/nothing") }
    #expect(failure?.status == 2)
    #expect(failure?.message.hasPrefix("error: \(directory)/nothing") == true)
  }
}
