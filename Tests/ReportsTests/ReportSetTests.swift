import TestSupport
import Testing

@testable import Reports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder's reports committed as one set, and the commit a stopped process leaves finished by the next
/// command; outputs that are devices or FIFOs written with a time limit.
@Suite("Report sets")
struct ReportSetTests {
  @Test("a set's files appear together on commit; until then the folder holds the old set, and no journal after")
  func commit() throws {
    let folder = TestFiles.temporaryDirectory()
    for name in ["a.csv", "b.csv", "stale.csv"] { try TestFiles.write("old \(name)\n", to: "\(folder)/\(name)") }
    let set = ReportSet(directory: folder)
    try set.write("new a\n", to: "a.csv")
    try set.write(bytes: Array("new b\n".utf8), to: "b.csv")
    set.remove("stale.csv")
    #expect(set.contains("a.csv") && !set.contains("stale.csv"))
    #expect(try TestFiles.read("\(folder)/a.csv") == "old a.csv\n", "nothing is renamed before the commit")
    try set.commit()
    #expect(try TestFiles.list(folder) == ["a.csv", "b.csv"])
    #expect(try TestFiles.read("\(folder)/a.csv") == "new a\n")
    #expect(try TestFiles.read("\(folder)/b.csv") == "new b\n")
  }

  @Test("a set dropped before its commit leaves the old files and no temporary file")
  func dropped() throws {
    let folder = TestFiles.temporaryDirectory()
    try TestFiles.write("old\n", to: "\(folder)/a.csv")
    do {
      let set = ReportSet(directory: folder)
      try set.write("new\n", to: "a.csv")
      #expect(try TestFiles.list(folder).count == 2, "the prepared temporary file")
    }
    #expect(try TestFiles.list(folder) == ["a.csv"])
    #expect(try TestFiles.read("\(folder)/a.csv") == "old\n")
  }

  @Test("the journal of a commit stopped part way is finished by recover: renames left, removals, journal gone")
  func recovery() throws {
    let folder = TestFiles.temporaryDirectory()
    // A commit stopped after renaming a.csv: b.csv is still old, its new text waits under its temporary name.
    try TestFiles.write("new a\n", to: "\(folder)/a.csv")
    try TestFiles.write("old b\n", to: "\(folder)/b.csv")
    try TestFiles.write("new b\n", to: "\(folder)/b.csv.tmp-999999")
    try TestFiles.write("old report\n", to: "\(folder)/report.html")
    try TestFiles.write(
      "widgetsim commit 1\nrename\ta.csv.tmp-999999\ta.csv\nrename\tb.csv.tmp-999999\tb.csv\nremove\treport.html\n",
      to: "\(folder)/\(ReportSet.journal)")
    try ReportSet.recover(folder)
    #expect(try TestFiles.list(folder) == ["a.csv", "b.csv"])
    #expect(try TestFiles.read("\(folder)/a.csv") == "new a\n")
    #expect(try TestFiles.read("\(folder)/b.csv") == "new b\n")
    try ReportSet.recover(folder)  // nothing to do
    #expect(try TestFiles.list(folder) == ["a.csv", "b.csv"])
  }

  @Test(
    "a journal widgetsim did not write is refused (exit 2) and followed nowhere",
    arguments: [
      "not a journal\n", "widgetsim commit 1\nrename\t../x\ty\n", "widgetsim commit 1\nrename\tx\n",
      "widgetsim commit 1\nmove\tx\ty\n",
    ])
  func foreignJournal(_ text: String) throws {
    let folder = TestFiles.temporaryDirectory()
    try TestFiles.write(text, to: "\(folder)/\(ReportSet.journal)")
    do {
      try ReportSet.recover(folder)
      Issue.record("accepted: \(text)")
    } catch {
      #expect(error.status == 2 && error.message.contains(ReportSet.journal), "\(error)")
    }
  }

  @Test("a file reached through /proc (as /dev/stdout redirected to a file) is refused, never renamed over")
  func systemLink() throws {
    let file = TestFiles.temporaryDirectory() + "/out.txt"
    let descriptor = open(file, O_WRONLY | O_CREAT, 0o644)
    defer { close(descriptor) }
    do {
      _ = try AtomicFileWriter(path: "/proc/self/fd/\(descriptor)")
      Issue.record("accepted")
    } catch {
      #expect(error.reason.contains("where widgetsim writes only into a device or FIFO"), "\(error)")
    }
  }

  @Test("a write to a pipe no one reads times out instead of waiting for ever")
  func pipeTimeout() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { for end in ends { close(end) } }
    #expect(fcntl(ends[1], F_SETFL, O_NONBLOCK) == 0)
    let bytes = [UInt8](repeating: 0x41, count: 1 << 20)
    let clock = ContinuousClock()
    let started = clock.now
    let written = bytes.withUnsafeBytes { AtomicFile.writeAll($0, to: ends[1], timeoutMilliseconds: 100) }
    #expect(!written && errno == ETIMEDOUT)
    #expect(clock.now - started < .seconds(5))
  }
}
