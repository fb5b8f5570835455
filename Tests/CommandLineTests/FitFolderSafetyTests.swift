import Reports
import TestSupport
import Testing

/// `calibrate` and `check --observed` keep their folder as `run` keeps its own: no output on a file they
/// read, an earlier command's reports refused without `--force` and replaced as a whole with it.
@Suite("calibrate and check --observed never overwrite what they read", .serialized)
struct FitFolderSafetyTests {
  static let log = CalibrateCommandTests.log
  static let base = CalibrateCommandTests.base
  static let serverLog = CalibrateCommandTests.serverLog

  @Test("the base scenario and the logs are never outputs: exit 2, and they are unchanged")
  func outputsOnInputsAreRefused() throws {
    let root = TestFiles.temporaryDirectory()
    try TestFiles.write(try TestFiles.read(Self.base), to: "\(root)/fitted.yaml")
    let scenario = try Subprocess.run(
      ["calibrate", Self.log, "--scenario", "\(root)/fitted.yaml", "--out", root])
    #expect(scenario.code == 2, "\(scenario.output)")
    #expect(scenario.output.contains("is the base scenario (--scenario)"), "\(scenario.output)")
    #expect(try TestFiles.read("\(root)/fitted.yaml") == TestFiles.read(Self.base))

    try TestFiles.write(try TestFiles.read(Self.log), to: "\(root)/fit.csv")
    let log = try Subprocess.run(["calibrate", "\(root)/fit.csv", "--scenario", Self.base, "--out", root])
    #expect(log.code == 2, "\(log.output)")
    #expect(log.output.contains("is the field log"), "\(log.output)")
    #expect(try TestFiles.read("\(root)/fit.csv") == TestFiles.read(Self.log))

    let copy = "\(root)/copy.jsonl"
    try TestFiles.write(try TestFiles.read(Self.log), to: copy)
    let junit = try Subprocess.run(["check", Self.base, "--observed", copy, "--out", "\(root)/check", "--junit", copy])
    #expect(junit.code == 2, "\(junit.output)")
    #expect(junit.output.contains("--junit"), "\(junit.output)")
    #expect(try TestFiles.read(copy) == TestFiles.read(Self.log))
  }

  @Test("a second calibration is refused without --force; with it the set is replaced whole")
  func earlierReportsNeedForce() throws {
    let out = TestFiles.temporaryDirectory() + "/fit"
    let first = try Subprocess.run(
      ["calibrate", Self.log, "--server-log", Self.serverLog, "--scenario", Self.base, "--out", out, "--jobs", "2"])
    #expect(first.code == 0, "\(first.output)")
    #expect(TextFile.isReadable("\(out)/delivery.csv"))
    let fitBefore = try TestFiles.read("\(out)/fit.csv")

    let refused = try Subprocess.run(["calibrate", Self.log, "--scenario", Self.base, "--out", out, "--jobs", "2"])
    #expect(refused.code == 2, "\(refused.output)")
    #expect(refused.output.contains("pass --force to replace them"), "\(refused.output)")
    #expect(try TestFiles.read("\(out)/fit.csv") == fitBefore)

    let forced = try Subprocess.run(
      ["calibrate", Self.log, "--scenario", Self.base, "--out", out, "--jobs", "2", "--force"])
    #expect(forced.code == 0, "\(forced.output)")
    // Without a server log this calibration has no delivery table: the first one's is gone, with its chart.
    #expect(!TextFile.isReadable("\(out)/delivery.csv"))
    #expect(!(try TestFiles.read("\(out)/report.html")).contains("pushes delivered, by hour sent"))
    #expect(!TextFile.isReadable("\(out)/\(ReportSet.journal)"))

    let check = try Subprocess.run(["check", Self.base, "--observed", Self.log, "--out", out, "--quiet"])
    #expect(check.code == 2, "\(check.output)")
    #expect(check.output.contains("pass --force"), "\(check.output)")
    let checkForced = try Subprocess.run(
      ["check", Self.base, "--observed", Self.log, "--out", out, "--quiet", "--force"])
    #expect(checkForced.code == 1, "\(checkForced.output)")
    #expect(!TextFile.isReadable("\(out)/fitted.yaml"), "a check's folder holds the check's reports alone")
    #expect(TextFile.isReadable("\(out)/fit_report.csv"))
  }

  @Test("check of a folder's own fitted.yaml into that folder, forced, keeps the scenario it reads")
  func forcedCheckKeepsItsScenario() throws {
    let out = TestFiles.temporaryDirectory() + "/fit"
    let first = try Subprocess.run(["calibrate", Self.log, "--scenario", Self.base, "--out", out, "--jobs", "2"])
    #expect(first.code == 0, "\(first.output)")
    let fitted = try TestFiles.read("\(out)/fitted.yaml")
    let check = try Subprocess.run(
      ["check", "\(out)/fitted.yaml", "--observed", Self.log, "--out", out, "--quiet", "--force"])
    #expect(check.code == 0, "\(check.output)")
    #expect(try TestFiles.read("\(out)/fitted.yaml") == fitted, "the checked scenario is an input: never removed")
    #expect(!TextFile.isReadable("\(out)/fit.csv"), "the calibration's other files are replaced")
  }

  @Test("a run's folder is refused too")
  func aRunFolderIsRefused() throws {
    let out = TestFiles.temporaryDirectory() + "/run"
    let run = try Subprocess.run(["run", Repository.path("Scenarios/field/app.yaml"), "--out", out, "--quiet"])
    #expect(run.code == 0, "\(run.output)")
    let refused = try Subprocess.run(["calibrate", Self.log, "--scenario", Self.base, "--out", out])
    #expect(refused.code == 2, "\(refused.output)")
    #expect(refused.output.contains("summary.csv") || refused.output.contains("reloads.csv"), "\(refused.output)")
  }

  @Test("--holdout's messages say what is wrong with the share")
  func holdoutMessages() throws {
    let root = TestFiles.temporaryDirectory()
    let negative = try Subprocess.run(
      ["calibrate", Self.log, "--scenario", Self.base, "--out", "\(root)/a", "--holdout", "-0.1"])
    #expect(negative.code == 2, "\(negative.output)")
    #expect(negative.output.contains("--holdout takes a share in 0..<1, got -0.1"), "\(negative.output)")
    let one = "\(root)/one.jsonl"
    try TestFiles.write(#"{"t":"2026-01-05T08:00:00Z","device":"a","event":"app_foreground"}"# + "\n", to: one)
    let all = try Subprocess.run([
      "calibrate", one, "--scenario", Self.base, "--out", "\(root)/b", "--holdout", "0.999",
    ])
    #expect(all.code == 2, "\(all.output)")
    #expect(all.output.contains("kept all 1 phone of the logs aside"), "\(all.output)")
  }

  @Test("compare says which manifest named a scenario file it refuses")
  func manifestNamedScenario() throws {
    let root = TestFiles.temporaryDirectory()
    let scenario = Repository.path("Scenarios/field/app.yaml")
    for name in ["base", "cand"] {
      let run = try Subprocess.run(["run", scenario, "--out", "\(root)/\(name)", "--quiet", "--days", "1"])
      #expect(run.code == 0, "\(run.output)")
    }
    let manifest = "\(root)/cand/manifest.json"
    let text = try TestFiles.read(manifest)
    try TestFiles.write(text.replacingScenarioFile(with: "/dev/zero"), to: manifest)
    let compared = try Subprocess.run(["compare", "\(root)/base", "\(root)/cand"])
    #expect(compared.code == 2, "\(compared.output)")
    #expect(
      compared.output.contains("\(root)/cand/manifest.json names the scenario file /dev/zero"), "\(compared.output)")
  }
}

extension String {
  /// A manifest's text with its `scenario_file` value replaced.
  fileprivate func replacingScenarioFile(with path: String) -> String {
    split(separator: "\n", omittingEmptySubsequences: false).map { line in
      guard line.contains("\"scenario_file\"") else { return String(line) }
      return line.prefix { $0 == " " } + "\"scenario_file\": \"\(path)\"" + (line.hasSuffix(",") ? "," : "")
    }.joined(separator: "\n")
  }
}
