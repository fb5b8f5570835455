import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `check` hands to a CI system: the GitHub Actions step summary and annotations, JUnit XML that
/// passes the schema, benchmark JSON in github-action-benchmark's format, and plain text for CI logs.
@Suite("CI outputs")
struct CIOutputTests {
  /// `xmllint` (libxml2-utils, installed by `scripts/install-deps --test`).
  static let xmllint = ["/usr/bin/xmllint", "/bin/xmllint", "/usr/local/bin/xmllint"].first { (path: String) in
    access(path, X_OK) == 0
  }

  /// Whether `xmllint` finds `file` valid against Tests/junit.xsd.
  static func validates(_ file: String) throws -> Bool {
    let program = try #require(xmllint, "xmllint is missing: run scripts/install-deps --test")
    let log = TestFiles.temporaryDirectory() + "/xmllint.txt"
    let pid = Subprocess.start(
      program: program, ["--noout", "--schema", Repository.path("Tests/junit.xsd"), file], output: log, errors: nil)
    return Subprocess.wait(pid) == 0
  }

  @Test("check under GitHub Actions: the step summary's table, an ::error on the widget's line, valid JUnit")
  func gitHubActions() throws {
    let directory = TestFiles.temporaryDirectory()
    let summary = "\(directory)/summary.md"
    try TestFiles.write("# earlier step\n", to: summary)
    let scenario = "Scenarios/regression/candidate.yaml"
    let (code, output) = try Subprocess.run(
      [
        "check", Repository.path(scenario), "--baseline", Repository.path("Scenarios/regression/baseline.csv"),
        "--out", "\(directory)/run", "--quiet", "--junit", "\(directory)/gates.xml",
      ],
      environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary, "NO_COLOR": "1"])
    #expect(code == 1, "a gate failed: \(output)")

    // The annotation points at the line of the forecast widget's entry in the scenario.
    let lines = try TestFiles.read(Repository.path(scenario)).split(separator: "\n", omittingEmptySubsequences: false)
    let line = try #require(lines.firstIndex { $0.hasPrefix("  - id: forecast") }) + 1
    let annotation = try #require(output.split(separator: "\n").first { $0.hasPrefix("::error ") })
    #expect(
      annotation.hasPrefix(
        "::error file=\(Repository.path(scenario)),line=\(line),title=widgetsim gate joules_per_day%3A+5%25+1 failed::"
          + "joules_per_day (forecast): 9.242 -> 21.70 J/day (+134.8%25), gate joules_per_day:+5%25+1, gate p"))
    // The verdict is the last line; nothing in the log is a terminal escape sequence.
    #expect(output.split(separator: "\n").last?.hasPrefix("FAIL: 2 of 4 gated metrics significantly worse") == true)
    #expect(!output.contains("\u{1B}["))

    // The summary was appended to, with the gate table and the failing row.
    let markdown = try TestFiles.read(summary)
    #expect(markdown.hasPrefix("# earlier step\n### widgetsim check "))
    #expect(markdown.contains("\n❌ **FAIL: 2 of 4 gated metrics significantly worse"))
    #expect(
      markdown.contains(
        "| metric | widget | baseline | candidate | change | 95% CI of difference | gate | gate p | verdict |\n|---|"))
    #expect(
      markdown.contains(
        "| joules_per_day | forecast | 9.242 J/day | 21.70 J/day | +134.8% | [12.29, 12.63] | joules_per_day:+5%+1 | "
          + "&lt;0.0001 | ❌ **FAIL** |"))
    #expect(markdown.split(separator: "\n").filter { $0.hasSuffix("| ✅ pass |") }.count == 2)

    // The JUnit file passes the schema: four testcases (the default gates, the phone's cost among them), two
    // failures, named metric@widget.
    let junit = "\(directory)/gates.xml"
    #expect(try Self.validates(junit))
    let xml = try TestFiles.read(junit)
    #expect(xml.contains(#"<testsuites name="widgetsim" tests="4" failures="2" errors="0" time="0">"#))
    #expect(
      xml.contains(#"<testcase name="joules_per_day@forecast" classname="widgetsim.gates.joules_per_day" time="0">"#))
    #expect(xml.split(separator: "\n").filter { $0.contains("<testcase ") && $0.contains(#" time="0""#) }.count == 4)
    #expect(xml.contains(#"<failure message="joules_per_day (forecast): 9.242 -&gt; 21.70 J/day"#))
    // The validation can fail: a testsuite without its name and with a non-numeric count does not pass.
    let broken = "\(directory)/broken.xml"
    try TestFiles.write(xml.replacing(#"tests="4""#, with: #"tests="four""#), to: broken)
    #expect(try !Self.validates(broken))
    // So can a time: the schema wants seconds, a decimal at least 0.
    for time in ["-1", "0.5s"] {
      try TestFiles.write(xml.replacing(#"time="0">"#, with: #"time="\#(time)">"#), to: broken)
      #expect(try !Self.validates(broken), "time=\(time)")
    }
  }

  @Test("without GitHub Actions: a failed gate prints no annotation, the verdict still last; --junit is checked")
  func plainCI() throws {
    let directory = TestFiles.temporaryDirectory()
    let arguments = [
      "check", Repository.path("Scenarios/regression/candidate.yaml"), "--baseline",
      Repository.path("Scenarios/regression/baseline.csv"), "--out", "\(directory)/run", "--quiet",
    ]
    let (code, output) = try Subprocess.run(arguments, environment: ["GITHUB_ACTIONS": "", "GITHUB_STEP_SUMMARY": ""])
    #expect(code == 1, "the candidate fails its gate: \(output)")
    #expect(output.contains("failed gate: joules_per_day (forecast)") && !output.contains("::error"))
    #expect(output.split(separator: "\n").last?.hasPrefix("FAIL: 2 of 4 gated metrics significantly worse") == true)
    let refused = try Subprocess.run(arguments + ["--force", "--junit", "\(directory)/"])
    #expect(refused.code == 2 && refused.output.contains("--junit names the XML file to write"), "\(refused.output)")
    // A mistyped gate is refused against the baseline before the run: exit 2, the nearest name, no reports.
    let mistyped = try Subprocess.run(
      arguments.map { $0.hasSuffix("/run") ? "\(directory)/mistyped" : $0 } + ["--gate", "joule_per_day:+5%"])
    #expect(mistyped.code == 2, "\(mistyped.output)")
    #expect(mistyped.output.contains("no metric 'joule_per_day' in "), "\(mistyped.output)")
    #expect(mistyped.output.contains("(did you mean 'joules_per_day'?)") && mistyped.output.count < 300)
    #expect(access("\(directory)/mistyped/replications.csv", F_OK) != 0, "the scenario was not run")
  }

  @Test("bench --json and --json-smaller: rates in one file, times per item in the other, one entry a figure")
  func benchmarkJSON() throws {
    let directory = TestFiles.temporaryDirectory()
    let (code, output) = try Subprocess.run([
      "bench", "--quick", "--repetitions", "2", "--only", "generator_uniform", "--only", "fleet_devices", "--json",
      "\(directory)/bigger.json", "--json-smaller", "\(directory)/smaller.json",
    ])
    #expect(code == 0, "\(output)")
    // The format itself is checked by a JSON parser in BenchmarksTests; here, what went where.
    let bigger = try TestFiles.read("\(directory)/bigger.json")
    let smaller = try TestFiles.read("\(directory)/smaller.json")
    #expect(
      bigger.hasPrefix("[\n  {\"name\": \"fleet_devices fleet-200x7d\", \"unit\": \"devices_per_s\", \"value\": "))
    #expect(
      bigger.split(separator: "\n").count == 4 && bigger.contains("{\"name\": \"fleet_devices fleet-200x7d-sampled\""),
      "two entries, the fleet counted and sampled: \(bigger)")
    #expect(smaller.hasPrefix("[\n  {\"name\": \"generator_uniform "))
    #expect(!smaller.contains("_per_s\"") && !bigger.contains("ns_per_"))
  }
}
