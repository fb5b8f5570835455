import Reports
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder's reports replaced as one set by every command, whatever stops it, and checked only under the
/// folder's lock.
@Suite("Report commits", .slow("commands killed mid-commit, many times"))
struct ReportCommitTests {
  /// A fleet small enough to shard and merge in a second.
  static let scenario = """
    name: commit
    days: 1
    replications: 2
    fleet:
      devices: 6
    widgets:
      - id: news
        kind: News
        timeline: {policy: after, after: 30m}

    """

  /// The test-only hook that holds a commit after its first N renames (ReportSet.pauseVariable).
  static let pause = "WIDGETSIM_TEST_COMMIT_PAUSE"

  /// Two shard folders of the scenario run with `seed`, under `base`.
  static func shards(seed: Int, in base: String) throws -> [String] {
    let file = "\(base)/commit.yaml"
    try TestFiles.write(scenario, to: file)
    return try (0..<2).map { index in
      let folder = "\(base)/seed-\(seed)-shard-\(index)"
      let run = try Subprocess.run([
        "run", file, "--seed", "\(seed)", "--shard", "\(index)/2", "--out", folder, "--quiet",
      ])
      #expect(run.code == 0, "\(run.output)")
      return folder
    }
  }

  /// Every report of a run in `directory`, by name ("" for one that is missing).
  static func reports(_ directory: String) -> [String: String] {
    var files: [String: String] = [:]
    for name in RunReports.files { files[name] = (try? TestFiles.read("\(directory)/\(name)")) ?? "" }
    return files
  }

  /// Names in `directory` left by an unfinished commit: its journal and temporary files.
  static func leftovers(_ directory: String) throws -> [String] {
    try TestFiles.list(directory).filter { $0.contains(".tmp-") || $0 == ReportSet.journal }
  }

  /// Waits up to 30 s for `path` to exist.
  static func waitFor(_ path: String) -> Bool {
    let deadline = Subprocess.now() + 30
    while access(path, F_OK) != 0 {
      if Subprocess.now() > deadline { return false }
      Subprocess.sleep(0.02)
    }
    return true
  }

  @Test("a merge stopped mid-commit: one SIGTERM finishes the new set; a kill leaves what the next command finishes")
  func mergeStoppedMidCommit() throws {
    let base = TestFiles.temporaryDirectory()
    let older = try Self.shards(seed: 1, in: base)
    let newer = try Self.shards(seed: 2, in: base)
    let reference = "\(base)/reference"
    #expect(try Subprocess.run(["merge"] + newer + ["--out", reference, "--quiet"]).code == 0)
    let out = "\(base)/out"
    #expect(try Subprocess.run(["merge"] + older + ["--out", out, "--quiet"]).code == 0)
    let oldSet = Self.reports(out)
    #expect(oldSet != Self.reports(reference), "the two sets differ")
    let journal = "\(out)/\(ReportSet.journal)"

    // Killed with two files renamed: a mixture on disk, which the next command into the folder finishes.
    let killed = Subprocess.start(
      ["merge"] + newer + ["--out", out, "--force", "--quiet"], log: "\(base)/killed.log",
      environment: [Self.pause: "2"])
    #expect(Self.waitFor(journal), "the commit never started")
    Subprocess.sleep(0.2)
    kill(killed, SIGKILL)
    #expect(Subprocess.wait(killed) == 128 + SIGKILL)
    #expect(access(journal, F_OK) == 0 && Self.reports(out) != Self.reports(reference))
    let report = try Subprocess.run(["report", out])
    #expect(report.code == 0, "\(report.output)")
    #expect(Self.reports(out) == Self.reports(reference), "the new set, whole")
    #expect(try Self.leftovers(out) == [])

    // A first SIGTERM mid-commit lets the merge finish: the whole set it was writing, no journal left.
    let stopped = Subprocess.start(
      ["merge"] + older + ["--out", out, "--force", "--quiet"], log: "\(base)/stopped.log",
      environment: [Self.pause: "1"])
    #expect(Self.waitFor(journal), "the commit never started")
    Subprocess.sleep(0.2)
    kill(stopped, SIGTERM)
    let code = Subprocess.wait(stopped)
    let log = try TestFiles.read("\(base)/stopped.log")
    #expect(code == 0, "\(log)")
    #expect(Self.reports(out) == oldSet)
    #expect(try Self.leftovers(out) == [])
    #expect(access("\(out)/report.html", F_OK) != 0, "the page of the replaced set is removed with it")
  }

  @Test("report and merge remove the temporary files that processes no longer running left")
  func staleTemporaries() throws {
    let base = TestFiles.temporaryDirectory()
    let shards = try Self.shards(seed: 1, in: base)
    let out = "\(base)/out"
    #expect(try Subprocess.run(["merge"] + shards + ["--out", out, "--quiet"]).code == 0)
    // The id of a process that has ended.
    let ended = Subprocess.start(program: "/bin/true", [], output: "\(base)/true.log", errors: nil)
    #expect(Subprocess.wait(ended) == 0)
    let planted = ["report.html.tmp-\(ended)", "summary.csv.tmp-\(ended)"]
    for command in [["report", out], ["merge"] + shards + ["--out", out, "--force", "--quiet"]] {
      for name in planted { try TestFiles.write("left by a killed process\n", to: "\(out)/\(name)") }
      let run = try Subprocess.run(command)
      #expect(run.code == 0, "\(command[0]): \(run.output)")
      #expect(try Self.leftovers(out) == [], "\(command[0])")
    }
  }

  @Test("the reports already in a folder are looked for under its lock: a command meeting a held lock says so")
  func checkedUnderLock() throws {
    let base = TestFiles.temporaryDirectory()
    let shards = try Self.shards(seed: 1, in: base)
    let folder = "\(base)/held"
    try AtomicFile.createDirectory(folder)
    let earlier = ["summary.csv", "compare.csv", "sweep.csv", "shard.txt"]
    for name in earlier { try TestFiles.write("an earlier command's\n", to: "\(folder)/\(name)") }
    let lock = try OutputFolder.Lock(folder)
    let baseline = Repository.path("Scenarios/regression/baseline.csv")
    let commands: [[String]] = [
      ["run", Repository.path("Scenarios/quickstart.yaml"), "--days", "1", "--out", folder, "--quiet"],
      ["run", "\(base)/commit.yaml", "--shard", "0/2", "--out", folder, "--quiet"],
      ["check", Repository.path("Scenarios/regression/candidate.yaml"), "--baseline", baseline, "--out", folder],
      ["sweep", Repository.path("Scenarios/sweep-refresh-interval.yaml"), "--days", "1", "--out", folder, "--quiet"],
      ["sweep", Repository.path("Scenarios/sweep-refresh-interval.yaml"), "--out", folder, "--force", "--quiet"],
      ["merge"] + shards + ["--out", folder, "--quiet"],
      ["compare", baseline, baseline, "--out", folder, "--no-gates"],
    ]
    for arguments in commands {
      let run = try Subprocess.run(arguments)
      #expect(run.code == 2, "\(arguments): \(run.output)")
      #expect(run.output.contains("is writing into this folder"), "\(arguments): \(run.output)")
    }
    withExtendedLifetime(lock) {}
    for name in earlier { #expect(try TestFiles.read("\(folder)/\(name)") == "an earlier command's\n", "\(name)") }
  }
}
