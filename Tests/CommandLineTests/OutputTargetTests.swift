import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command's outputs may land: never on its inputs or on each other, into a device or FIFO but never
/// over it, and never so that a CI file can hang the gate.
@Suite("Output targets")
struct OutputTargetTests {
  static let baseline = Repository.path("Scenarios/regression/baseline.csv")

  /// The type of what `path` names (`S_IFCHR`, `S_IFIFO`, `S_IFREG`...), 0 for nothing.
  static func type(_ path: String) -> mode_t {
    var status = stat()
    return stat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
  }

  /// A character device of the kind of `/dev/<name>` (null or full): made in a private folder when this
  /// process may (so no test ever risks the real one), otherwise the real one, which it cannot replace.
  static func device(_ name: String) -> String {
    var real = stat()
    guard stat("/dev/\(name)", &real) == 0 else { return "/dev/\(name)" }
    let path = TestFiles.temporaryDirectory() + "/\(name)"
    return mknod(path, S_IFCHR | 0o666, real.st_rdev) == 0 ? path : "/dev/\(name)"
  }

  @Test("an output on an input or on another output is refused with exit 2, and nothing is written")
  func clashes() throws {
    let folder = TestFiles.temporaryDirectory()
    let candidate = "\(folder)/candidate"
    #expect(try Subprocess.run(["compare", Self.baseline, Self.baseline, "--out", candidate, "--no-gates"]).code == 0)
    try TestFiles.write(try TestFiles.read(Self.baseline), to: "\(candidate)/replications.csv")
    let data = try TestFiles.read("\(candidate)/replications.csv")
    let bench = ["bench", "--quick", "--only", "event_set_hold"]
    let cases: [(arguments: [String], message: String)] = [
      (
        ["compare", Self.baseline, candidate, "--junit", "\(candidate)/replications.csv", "--force"],
        "is the candidate, which this command reads"
      ),
      (
        ["compare", Self.baseline, candidate, "--junit", "\(candidate)/./replications.csv", "--force"],
        "is the candidate, which this command reads"
      ),
      (
        ["compare", Self.baseline, candidate, "--out", "\(folder)/o", "--junit", "\(folder)/o/compare.csv"],
        "is also compare.csv"
      ),
      (bench + ["--json", "\(folder)/f.json", "--json-smaller", "\(folder)/f.json"], "is also --json"),
      (bench + ["--json", "\(folder)/f.json", "--out", "\(folder)/f.json"], "is also --out"),
      (bench + ["--out", Self.baseline, "--baseline", Self.baseline], "is --baseline, which this command reads"),
      (
        [
          "check", Repository.path("Scenarios/regression/candidate.yaml"), "--baseline", Self.baseline, "--out",
          "\(folder)/run", "--junit", "\(folder)/run/summary.csv",
        ], "is also the run's summary.csv"
      ),
    ]
    for (arguments, message) in cases {
      let run = try Subprocess.run(arguments)
      #expect(run.code == 2, "\(arguments): \(run.output)")
      #expect(run.output.contains(message), "\(arguments): \(run.output)")
    }
    #expect(try TestFiles.read("\(candidate)/replications.csv") == data)
    #expect(access("\(folder)/f.json", F_OK) != 0 && access("\(folder)/run", F_OK) != 0)
    #expect(try TestFiles.list(folder) == ["candidate"])
  }

  @Test("a device named as an output is written into, never replaced; /dev/full reports its failure (exit 1)")
  func devices() throws {
    let compare = ["compare", Self.baseline, Self.baseline, "--out", TestFiles.temporaryDirectory(), "--no-gates"]
    let null = Self.device("null")
    let written = try Subprocess.run(compare + ["--junit", null])
    #expect(written.code == 0, "\(written.output)")
    #expect(Self.type(null) == S_IFCHR)
    let full = Self.device("full")
    let failed = try Subprocess.run(compare + ["--force", "--junit", full])
    #expect(failed.code == 1, "\(failed.output)")
    #expect(failed.output.contains("cannot write \(full): write: No space left on device"), "\(failed.output)")
    #expect(Self.type(full) == S_IFCHR)
  }

  @Test("a FIFO named as an output is written into when read, refused at once when not; never replaced")
  func fifos() throws {
    let folder = TestFiles.temporaryDirectory()
    let fifo = "\(folder)/gates.xml"
    #expect(mkfifo(fifo, 0o644) == 0)
    let compare = ["compare", Self.baseline, Self.baseline, "--out", folder, "--no-gates", "--force"]
    let unread = try Subprocess.runWithin(20, compare + ["--junit", fifo])
    #expect(unread.code == 1, "\(unread.output)")
    #expect(unread.output.contains("it is a FIFO that no process is reading"), "\(unread.output)")
    #expect(Self.type(fifo) == S_IFIFO)
    // With a reader: the XML goes through the FIFO.
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    defer { close(reader) }
    let delivered = try Subprocess.runWithin(20, compare + ["--junit", fifo])
    #expect(delivered.code == 0, "\(delivered.output)")
    var bytes = [UInt8](repeating: 0, count: 1 << 16)
    let count = read(reader, &bytes, bytes.count)
    #expect(count > 0 && String(decoding: bytes.prefix(max(0, count)), as: UTF8.self).hasPrefix("<?xml"))
    #expect(Self.type(fifo) == S_IFIFO)
  }

  @Test("GITHUB_STEP_SUMMARY naming a FIFO cannot hang compare or check: the verdict first, then the error")
  func summaryFIFO() throws {
    let folder = TestFiles.temporaryDirectory()
    let fifo = "\(folder)/summary"
    #expect(mkfifo(fifo, 0o644) == 0)
    let environment = ["GITHUB_STEP_SUMMARY": fifo, "GITHUB_ACTIONS": ""]
    let commands = [
      ["compare", Self.baseline, Self.baseline, "--out", folder, "--no-gates"],
      [
        "check", Repository.path("Scenarios/regression/candidate.yaml"), "--baseline", Self.baseline, "--out",
        "\(folder)/run", "--quiet",
      ],
    ]
    for arguments in commands {
      let run = try Subprocess.runWithin(60, arguments, environment: environment)
      #expect(run.code == 1, "\(arguments[0]): \(run.output)")
      let verdict = try #require(run.output.firstRange(of: "compare.csv: "), "\(arguments[0]): \(run.output)")
      let error = try #require(run.output.firstRange(of: "error: cannot write \(fifo)"), "\(run.output)")
      #expect(verdict.lowerBound < error.lowerBound, "the verdict is printed first")
      #expect(run.output.contains("it is a FIFO that no process is reading"), "\(run.output)")
    }
    // Read, the FIFO gets the summary.
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    defer { close(reader) }
    let run = try Subprocess.runWithin(
      60, ["compare", Self.baseline, Self.baseline, "--out", folder, "--no-gates", "--force"],
      environment: environment)
    #expect(run.code == 0, "\(run.output)")
    var bytes = [UInt8](repeating: 0, count: 1 << 16)
    let count = read(reader, &bytes, bytes.count)
    #expect(String(decoding: bytes.prefix(max(0, count)), as: UTF8.self).hasPrefix("### widgetsim compare"))
  }
}

extension Subprocess {
  /// Runs `widgetsim arguments...` as ``run(_:environment:)`` does, killing it after `seconds` (exit code
  /// 128 + SIGKILL): for commands that must not hang.
  static func runWithin(_ seconds: Double, _ arguments: [String], environment: [String: String] = [:]) throws -> (
    code: Int32, output: String
  ) {
    let log = TestFiles.temporaryDirectory() + "/output.txt"
    let pid = start(arguments, log: log, environment: environment)
    let deadline = now() + seconds
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
      if now() > deadline {
        kill(pid, SIGKILL)
        Issue.record("widgetsim \(arguments.joined(separator: " ")) still running after \(seconds) s: killed")
        return (wait(pid), try TestFiles.read(log))
      }
      sleep(0.02)
    }
    let signal = status & 0x7f
    return (signal == 0 ? (status >> 8) & 0xff : 128 + signal, try TestFiles.read(log))
  }
}
