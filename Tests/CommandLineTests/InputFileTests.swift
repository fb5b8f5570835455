import Reports
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every file a command reads is a regular file under its documented limit (``InputLimits``); a FIFO, a
/// device or a file past the limit in its place is refused at once, naming it (exit 2), never read.
@Suite("Input files")
struct InputFileTests {
  /// Runs `widgetsim arguments...` for at most `seconds`: its exit code (nil when it had to be killed: it
  /// hung or was still reading) and what it printed.
  static func bounded(_ arguments: [String], seconds: Double = 60) throws -> (code: Int32?, output: String) {
    let log = TestFiles.temporaryDirectory() + "/output.txt"
    let pid = Subprocess.start(arguments, log: log)
    let deadline = Subprocess.now() + seconds
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
      if Subprocess.now() > deadline {
        kill(pid, SIGKILL)
        _ = Subprocess.wait(pid)
        return (nil, try TestFiles.read(log))
      }
      Subprocess.sleep(0.05)
    }
    return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), try TestFiles.read(log))
  }

  /// Expects `arguments` to be refused with exit 2 and a message holding each of `words`.
  static func expectRefusal(_ arguments: [String], naming words: [String]) throws {
    let (code, output) = try bounded(arguments)
    #expect(code == 2, "\(arguments): \(code.map { "exit \($0)" } ?? "killed"): \(output)")
    for word in words { #expect(output.contains(word), "\(arguments): no \(word) in \(output)") }
  }

  /// Replaces the file at `path` with a FIFO.
  static func fifo(_ path: String) {
    unlink(path)
    #expect(mkfifo(path, 0o644) == 0)
  }

  /// A quickstart run of one day, traced, into a fresh folder.
  static func run() throws -> String {
    let folder = TestFiles.temporaryDirectory() + "/run"
    let run = try Subprocess.run([
      "run", Repository.path("Scenarios/quickstart.yaml"), "--days", "1", "--replications", "2", "--trace", "0",
      "--out", folder, "--quiet",
    ])
    #expect(run.code == 0, "\(run.output)")
    return folder
  }

  @Test("report refuses a trace.csv FIFO, a manifest.json linked to /dev/zero and a summary.csv past its limit")
  func report() throws {
    let folder = try Self.run()
    Self.fifo("\(folder)/trace.csv")
    try Self.expectRefusal(["report", folder], naming: ["trace.csv", "FIFO"])
    unlink("\(folder)/trace.csv")
    let manifest = try TestFiles.read("\(folder)/manifest.json")
    unlink("\(folder)/manifest.json")
    #expect(symlink("/dev/zero", "\(folder)/manifest.json") == 0)
    try Self.expectRefusal(["report", folder], naming: ["manifest.json", "character device"])
    unlink("\(folder)/manifest.json")
    try TestFiles.write(manifest, to: "\(folder)/manifest.json")
    // A sparse file one byte past the limit: refused by its size, before a byte of it is read.
    #expect(truncate("\(folder)/summary.csv", off_t(InputLimits.chartedReportBytes + 1)) == 0)
    try Self.expectRefusal(["report", folder], naming: ["summary.csv", "limit"])
  }

  @Test("compare refuses a manifest whose scenario_file names /dev/zero or a FIFO, naming it")
  func compareScenarioFile() throws {
    let folder = try Self.run()
    let fifo = TestFiles.temporaryDirectory() + "/scenario.yaml"
    Self.fifo(fifo)
    let manifest = try TestFiles.read("\(folder)/manifest.json")
    for target in ["/dev/zero", fifo] {
      let candidate = TestFiles.temporaryDirectory() + "/candidate"
      #expect(mkdir(candidate, 0o755) == 0)
      try TestFiles.write(try TestFiles.read("\(folder)/replications.csv"), to: "\(candidate)/replications.csv")
      let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        line.contains("\"scenario_file\"") ? "  \"scenario_file\": \"\(target)\"," : String(line)
      }
      try TestFiles.write(lines.joined(separator: "\n"), to: "\(candidate)/manifest.json")
      try Self.expectRefusal(["compare", folder, candidate], naming: [target])
    }
  }

  @Test("merge refuses a shard.txt past its limit and a shard's scenario.yaml that is a FIFO")
  func mergeShardFiles() throws {
    let base = TestFiles.temporaryDirectory()
    for index in 0..<2 {
      let run = try Subprocess.run([
        "run", Repository.path("Scenarios/fleet-capacity.yaml"), "--devices", "4", "--days", "1", "--warmup-days",
        "0", "--replications", "1", "--shard", "\(index)/2", "--out", "\(base)/shard\(index)", "--quiet",
      ])
      #expect(run.code == 0, "\(run.output)")
    }
    let shards = ["\(base)/shard0", "\(base)/shard1"]
    let description = "\(base)/shard0/shard.txt"
    let size = try TestFiles.read(description).utf8.count
    #expect(truncate(description, off_t(InputLimits.descriptionBytes + 1)) == 0)
    try Self.expectRefusal(["merge"] + shards + ["--out", "\(base)/merged"], naming: ["shard.txt", "limit"])
    #expect(truncate(description, off_t(size)) == 0)
    Self.fifo("\(base)/shard1/scenario.yaml")
    try Self.expectRefusal(["merge"] + shards + ["--out", "\(base)/merged"], naming: ["scenario.yaml", "FIFO"])
  }
}
