import CommandSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The reports of one folder, committed as one set: a reader finds the old set or the new one, never some
/// files of each. Every file is written to its temporary name and flushed to disk first; then a journal
/// (``journal``) naming every rename and removal is committed; then the renames and removals are done and the
/// journal removed. A process stopped before the journal is committed leaves the old set (the next command
/// in the folder removes its temporary files); stopped after, the next command in the folder finishes the
/// renames from the journal (``recover(_:)``) before it does anything else.
public final class ReportSet {
  /// The journal of a commit under way, in the folder.
  public static let journal = ".widgetsim-commit"
  /// The journal's first line.
  static let header = "widgetsim commit 1"
  /// Test-only: with `WIDGETSIM_TEST_COMMIT_PAUSE=N` in the environment, a commit waits up to 20 s (or until
  /// a signal arrives) after its first N renames, so a test can stop a process mid-commit at a known point.
  static let pauseVariable = "WIDGETSIM_TEST_COMMIT_PAUSE"

  public let directory: String
  private var writers: [AtomicFileWriter] = []
  private var removals: [String] = []

  public init(directory: String) {
    self.directory = directory
  }

  /// Adds a file of the folder: written to disk now, renamed into place by ``commit()``.
  public func add(_ writer: AtomicFileWriter) throws(AtomicFile.WriteError) {
    try writer.prepare()
    writers.append(writer)
  }

  /// Adds the file `name` of the folder holding `text`.
  public func write(_ text: String, to name: String) throws(AtomicFile.WriteError) {
    let writer = try AtomicFileWriter(path: "\(directory)/\(name)")
    try writer.append(text)
    try add(writer)
  }

  /// Adds the file `name` of the folder holding `bytes`.
  public func write(bytes: [UInt8], to name: String) throws(AtomicFile.WriteError) {
    let writer = try AtomicFileWriter(path: "\(directory)/\(name)")
    try writer.append(bytes: bytes)
    try add(writer)
  }

  /// Whether the set writes the file `name`.
  public func contains(_ name: String) -> Bool {
    writers.contains { ReportSet.name($0.path) == name }
  }

  /// Removes the file `name` of the folder (an earlier run's that the new set has no counterpart of) with
  /// the commit.
  public func remove(_ name: String) {
    removals.append(name)
  }

  /// Renames every file into place, in the order added, and does the removals.
  public func commit() throws(AtomicFile.WriteError) {
    let renamed = writers.compactMap { writer in writer.temporary.map { (writer, ReportSet.name($0)) } }
    var text = ReportSet.header + "\n"
    for (writer, temporary) in renamed { text += "rename\t\(temporary)\t\(ReportSet.name(writer.path))\n" }
    for name in removals { text += "remove\t\(name)\n" }
    let journalPath = "\(directory)/\(ReportSet.journal)"
    try AtomicFile.write(text, to: journalPath)
    ReportSet.synchronize(directory)
    // From here the journal owns the temporary files: a process stopped now leaves them for the next command.
    for writer in writers { writer.handOver() }
    for (index, (writer, _)) in renamed.enumerated() {
      ReportSet.pauseForTest(after: index)
      try writer.rename()
    }
    for name in removals { AtomicFile.remove("\(directory)/\(name)") }
    ReportSet.synchronize(directory)
    AtomicFile.remove(journalPath)
  }

  /// Finishes the commit a stopped process left in `directory`, if any: every rename whose temporary file is
  /// still there (the others were done) and every removal, then removes the journal. A journal widgetsim did
  /// not write is bad input (exit 2); a rename that fails, a failure to write (1).
  public static func recover(_ directory: String) throws(CommandFailure) {
    let path = "\(directory)/\(journal)"
    guard access(path, F_OK) == 0 else { return }
    let text: String
    do {
      text = String(decoding: try TextFile.readBytes(path, limit: 1 << 20), as: UTF8.self)
    } catch {
      throw .badInput("\(error)")
    }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    guard lines.first == Substring(header) else {
      throw .badInput("\(path) is not a widgetsim commit journal; remove it")
    }
    var actions: [(from: String, to: String?)] = []
    for (offset, line) in lines.enumerated().dropFirst() {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.dropFirst().allSatisfy(isName) else {
        throw .badInput("\(path) line \(offset + 1): a name that is not a file of the folder")
      }
      switch (fields.first, fields.count) {
      case ("rename", 3): actions.append((fields[1], fields[2]))
      case ("remove", 2): actions.append((fields[1], nil))
      default: throw .badInput("\(path) line \(offset + 1): expected rename or remove")
      }
    }
    for (from, to) in actions {
      let source = "\(directory)/\(from)"
      guard let to else {
        AtomicFile.remove(source)
        continue
      }
      var status = stat()
      if lstat(source, &status) == 0 && systemRename(source, "\(directory)/\(to)") != 0 {
        throw .failed("\(AtomicFile.error("\(directory)/\(to)", "rename (finishing an interrupted commit)"))")
      }
    }
    synchronize(directory)
    AtomicFile.remove(path)
  }

  /// The last component of `path`.
  static func name(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  /// A file name inside the folder: no separator, not `.` or `..`, no line break.
  static func isName(_ name: String) -> Bool {
    !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\n")
  }

  /// Flushes the folder's entries (renames, new files) to disk.
  static func synchronize(_ directory: String) {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }

  /// The test hook of ``pauseVariable``.
  static func pauseForTest(after renames: Int) {
    guard let value = getenv(pauseVariable), Int(String(cString: value)) == renames else { return }
    _ = sleep(20)
  }
}
