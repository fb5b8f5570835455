import CommandSupport
import Reports
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where and how commands write: never into an empty or root folder, never through a planted link, never
/// two at once into one folder.
@Suite("Output safety")
struct OutputSafetyTests {
  @Test(
    "an empty or root output folder is bad input (exit 2) for every command that writes", arguments: ["", "/", "//."])
  func refusedFolders(_ folder: String) throws {
    let baseline = Repository.path("Scenarios/regression/baseline.csv")
    let commands: [[String]] = [
      ["run", Repository.path("Scenarios/quickstart.yaml"), "--days", "1", "--out", folder, "--quiet"],
      ["sweep", Repository.path("Scenarios/sweep-refresh-interval.yaml"), "--days", "1", "--out", folder, "--quiet"],
      ["compare", baseline, baseline, "--out", folder],
      ["check", Repository.path("Scenarios/regression/candidate.yaml"), "--baseline", baseline, "--out", folder],
      ["report", folder],
    ]
    if folder.isEmpty {
      let bench = try Subprocess.run(["bench", "--quick", "--out", folder])
      #expect(bench.code == 2 && bench.output.contains("--out names the CSV file"), "\(bench.output)")
    }
    for arguments in commands {
      let run = try Subprocess.run(arguments)
      #expect(run.code == 2, "\(arguments): \(run.output)")
      #expect(run.output.contains("output folder"), "\(arguments): \(run.output)")
    }
  }

  @Test("OutputFolder.problem: empty and every spelling of the root, nothing else")
  func problems() {
    for path in ["", "/", "//", "/.", "/..", "/./../"] { #expect(OutputFolder.problem(path) != nil, "\(path)") }
    for path in ["Reports", "./out", "/tmp", "/..x", "."] { #expect(OutputFolder.problem(path) == nil, "\(path)") }
  }

  @Test("a symbolic link planted at a temporary file's name is replaced, never written through")
  func plantedLink() throws {
    let folder = TestFiles.temporaryDirectory()
    let victim = "\(folder)/victim.txt"
    try TestFiles.write("precious\n", to: victim)
    let target = "\(folder)/summary.csv"
    #expect(symlink(victim, "\(target).tmp-\(getpid())") == 0)
    try AtomicFile.write("metric\n", to: target)
    #expect(try TestFiles.read(victim) == "precious\n")
    #expect(try TestFiles.read(target) == "metric\n")
    // A link planted at the target itself is replaced by the new file, not followed.
    #expect(symlink(victim, "\(folder)/compare.csv") == 0)
    try AtomicFile.write("new\n", to: "\(folder)/compare.csv")
    #expect(try TestFiles.read(victim) == "precious\n")
  }

  @Test("a second command writing into a locked folder says who holds it and exits 2; compare creates --out")
  func lockedFolder() throws {
    let folder = TestFiles.temporaryDirectory() + "/locked"
    try AtomicFile.createDirectory(folder)
    let lock = try OutputFolder.Lock(folder)
    let run = try Subprocess.run([
      "run", Repository.path("Scenarios/quickstart.yaml"), "--days", "1", "--out", folder, "--quiet",
    ])
    #expect(run.code == 2, "\(run.output)")
    #expect(run.output.contains("another widgetsim (process \(getpid())) is writing into this folder"), "\(run.output)")
    withExtendedLifetime(lock) {}
    let baseline = Repository.path("Scenarios/regression/baseline.csv")
    let fresh = TestFiles.temporaryDirectory() + "/not/yet/there"
    let compare = try Subprocess.run(["compare", baseline, baseline, "--out", fresh, "--no-gates"])
    #expect(compare.code == 0, "\(compare.output)")
    #expect(try TestFiles.read("\(fresh)/compare.csv").hasPrefix("metric,"))
  }

  @Test("control characters from input files are shown escaped, never sent to the terminal")
  func escapedMessages() throws {
    #expect(
      Console.escapingControls("a\u{1B}]0;PWNED\u{07}b\r\nc\td\u{9B}") == "a\\u{1B}]0;PWNED\\u{7}b\\u{D}\nc\td\\u{9B}")
    #expect(Console.escapingControls("plain text, é, 日本") == "plain text, é, 日本")
    let folder = TestFiles.temporaryDirectory()
    let evil = "\(folder)/evil.csv"
    try TestFiles.write(
      "seed,replication,metric,widget,value,unit\n1,0,m\u{1B}[31m,w,1,u\n1,0,m\u{1B}[31m,w,2,u\n", to: evil)
    let run = try Subprocess.run(["compare", evil, evil, "--out", folder])
    #expect(run.code == 2, "\(run.output)")
    #expect(run.output.contains("m\\u{1B}[31m (w) appears twice"), "\(run.output)")
    #expect(!run.output.unicodeScalars.contains("\u{1B}"), "a raw escape reached the terminal")
  }

  @Test("a sweep rerun with other options is refused naming them; --force starts over; oversized inputs are refused")
  func journalIdentity() throws {
    let folder = TestFiles.temporaryDirectory() + "/sweep"
    let sweep = Repository.path("Scenarios/sweep-refresh-interval.yaml")
    let first = try Subprocess.run(["sweep", sweep, "--days", "1", "--replications", "1", "--out", folder, "--quiet"])
    #expect(first.code == 0, "\(first.output)")
    let other = try Subprocess.run(["sweep", sweep, "--days", "2", "--replications", "1", "--out", folder, "--quiet"])
    #expect(other.code == 2, "\(other.output)")
    #expect(other.output.contains("overrides: replications=1 days=1 vs replications=1 days=2"), "\(other.output)")
    let forced = try Subprocess.run([
      "sweep", sweep, "--days", "2", "--replications", "1", "--out", folder, "--quiet", "--force",
    ])
    #expect(forced.code == 0, "\(forced.output)")
    // A sparse 300 MB file: refused from its size, without reading it.
    let huge = TestFiles.temporaryDirectory() + "/replications.csv"
    try TestFiles.write("seed,replication,metric,widget,value,unit\n", to: huge)
    #expect(truncate(huge, 300 << 20) == 0)
    let compare = try Subprocess.run(["compare", huge, huge, "--out", TestFiles.temporaryDirectory()])
    #expect(compare.code == 2, "\(compare.output)")
    #expect(compare.output.contains("above the 256 MiB limit"), "\(compare.output)")
  }
}
