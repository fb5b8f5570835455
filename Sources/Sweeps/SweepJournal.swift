import Reports
import Results
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The durable record of finished sweep tasks: each task's values and then a `done` line are appended and
/// flushed to disk (`fsync`) as the task finishes, so after Ctrl-C, `kill -9` or a power cut the finished
/// tasks are known and a torn last record is ignored. Values are written in Swift's shortest exact form,
/// so values read back are the same bits and reports from a resumed run equal an uninterrupted one.
///
/// Format: a header `widgetsim-sweep-journal 2 FINGERPRINT TASKS`, the ``SweepIdentity`` line, then per task
/// lines `v TASK METRIC WIDGET UNIT VALUE` (tab-separated; a figure a fleet's sample estimates adds its
/// interval, `LOW HIGH SAMPLING_HALF_WIDTH`) and a closing `done TASK CHECKSUM`, the checksum an FNV-1a hash
/// of the task's `v` lines: a record changed on disk is reported and its task run again.
public final class SweepJournal: Sendable {
  public struct JournalError: Error, CustomStringConvertible {
    public let message: String
    /// Whether the journal on disk is the problem (another sweep's, corrupt, too large: exit 2) rather than
    /// writing it (exit 1).
    public var isBadInput = true
    public var description: String { message }
  }

  /// What a journal holds: its identity, task count, finished tasks, and tasks whose record failed its
  /// checksum (to run again).
  public struct Contents: Sendable {
    public let identity: SweepIdentity
    public let tasks: Int
    public let done: [Int: [MetricValue]]
    public let corrupt: [Int]
  }

  public static let version = 2
  /// Largest journal read (see ``InputLimits/journalBytes``).
  public static let maximumBytes = InputLimits.journalBytes

  public let path: String
  /// File descriptor for appending (owned: closed on deinit). Writes go through `lock`.
  private let descriptor: Int32
  private let lock = Mutex<Void>(())

  /// Opens (creating if needed) the journal for `identity` and returns it with what it already holds. A
  /// journal of another identity (or an older format) is refused, naming what differs.
  public static func open(path: String, identity: SweepIdentity, taskCount: Int) throws(JournalError)
    -> (SweepJournal, Contents)
  {
    var contents = Contents(identity: identity, tasks: taskCount, done: [:], corrupt: [])
    if TextFile.isReadable(path) {
      let existing = try load(path: path)
      let differences = identity.differences(from: existing.identity)
      guard differences.isEmpty, existing.tasks == taskCount else {
        let what = differences.isEmpty ? ["tasks: \(existing.tasks) vs \(taskCount)"] : differences
        throw JournalError(
          message: "\(path) belongs to a different sweep: \(what.joined(separator: "; ")) (journal vs this command); "
            + "use another --out, or --force to start over")
      }
      contents = existing
    }
    // Start from a compact copy holding only finished tasks, renamed into place: a record torn by a crash
    // must not run into the lines this run appends.
    let temporary = "\(path).tmp-\(getpid())"
    let fresh = AtomicFile.createExclusively(temporary)
    guard fresh >= 0 else {
      throw JournalError(message: "cannot open \(temporary): \(String(cString: strerror(errno)))", isBadInput: false)
    }
    let journal = SweepJournal(path: path, descriptor: fresh)
    try journal.append(
      "widgetsim-sweep-journal \(version) \(identity.fingerprint) \(taskCount)\n\(identity.line)\n")
    for task in contents.done.keys.sorted() { try journal.record(task: task, values: contents.done[task] ?? []) }
    guard rename(temporary, path) == 0 else {
      throw JournalError(
        message: "cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))", isBadInput: false)
    }
    return (journal, contents)
  }

  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = descriptor
  }

  deinit {
    close(descriptor)
  }

  /// Records a finished task durably.
  public func record(task: Int, values: [MetricValue]) throws(JournalError) {
    var lines = ""
    for value in values {
      lines += "v\t\(task)\t\(value.metric)\t\(value.widget)\t\(value.unit)\t\(value.value)"
      if let sampled = value.sampled { lines += "\t\(sampled.low)\t\(sampled.high)\t\(sampled.samplingHalfWidth)" }
      lines += "\n"
    }
    try append(lines + "done\t\(task)\t\(SweepPlan.hexadecimal(SweepPlan.fnv1a64(lines)))\n")
  }

  private func append(_ text: String) throws(JournalError) {
    let failed: Bool = lock.withLock { _ in
      var text = text
      return !AtomicFile.writeAll(&text, to: descriptor) || fsync(descriptor) != 0
    }
    if failed {
      throw JournalError(message: "cannot write \(path): \(String(cString: strerror(errno)))", isBadInput: false)
    }
  }

  /// Reads journal lines one at a time: the header, the identity, then the records. Finished tasks are those
  /// whose `done` line carries the checksum of their `v` lines; a torn record (no `done`) is ignored, a record
  /// whose checksum fails is listed as corrupt.
  struct Reader {
    let path: String
    var lineCount = 0
    var tasks = 0
    var identity: SweepIdentity?
    var pending: [Int: (values: [MetricValue], text: String, readable: Bool)] = [:]
    var done: [Int: [MetricValue]] = [:]
    var corrupt: Set<Int> = []

    mutating func add(_ line: Substring) throws(JournalError) {
      lineCount += 1
      if lineCount == 1 {
        let header = line.split(separator: " ")
        guard header.count == 4, header[0] == "widgetsim-sweep-journal", let tasks = Int(header[3]) else {
          throw JournalError(
            message: "\(path) is not a widgetsim sweep journal; use another --out, or --force to replace it")
        }
        guard header[1] == "\(version)" else { throw olderFormat(String(header[1])) }
        self.tasks = tasks
        return
      }
      if lineCount == 2 {
        guard let identity = SweepIdentity(line: line) else {
          throw JournalError(message: "\(path) is not a widgetsim sweep journal: its identity line is missing")
        }
        self.identity = identity
        return
      }
      guard !line.isEmpty else { return }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      if fields.first == "v", fields.count >= 2, let task = Int(fields[1]) {
        var record = pending.removeValue(forKey: task) ?? ([], "", true)
        record.text += line + "\n"
        if fields.count == 6 || fields.count == 9, let value = Double(fields[5]) {
          let bounds = fields.dropFirst(6).compactMap { Double($0) }
          let sampled =
            bounds.count == 3 ? SampledInterval(low: bounds[0], high: bounds[1], samplingHalfWidth: bounds[2]) : nil
          record.readable = record.readable && bounds.count == fields.count - 6
          record.values.append(
            MetricValue(
              metric: String(fields[2]), widget: String(fields[3]), unit: String(fields[4]), value: value,
              sampled: sampled))
        } else {
          record.readable = false
        }
        pending[task] = record
      } else if fields.count == 3, fields[0] == "done", let task = Int(fields[1]) {
        let record = pending.removeValue(forKey: task) ?? ([], "", true)
        if record.readable && SweepPlan.hexadecimal(SweepPlan.fnv1a64(record.text)) == fields[2] {
          done[task] = record.values
          corrupt.remove(task)
        } else {
          done[task] = nil
          corrupt.insert(task)
        }
      }
    }

    func olderFormat(_ found: String) -> JournalError {
      JournalError(
        message: "\(path) was written by an older widgetsim (journal version \(found)): use --force to start over")
    }

    func contents() throws(JournalError) -> Contents {
      guard let identity else {
        throw JournalError(
          message: "\(path) is not a widgetsim sweep journal"
            + (lineCount == 0 ? "" : ": its identity line is missing") + "; use another --out, or --force to replace it"
        )
      }
      return Contents(identity: identity, tasks: tasks, done: done, corrupt: corrupt.sorted())
    }
  }

  /// Reads a journal without opening it for writing (also for `merge`), line by line (memory holds the
  /// finished tasks, not the file); over ``maximumBytes`` it is refused before it is read.
  public static func load(path: String) throws(JournalError) -> Contents {
    let handle: UnsafeMutablePointer<FILE>
    do {
      handle = try TextFile.open(path, limit: maximumBytes)
    } catch {
      throw JournalError(message: "\(error)")
    }
    defer { fclose(handle) }
    var reader = Reader(path: path)
    var buffer: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(buffer) }
    while true {
      let count = getline(&buffer, &capacity, handle)
      guard count > 0, let buffer else { break }
      // Lossy: a crash may have cut the last line mid-character.
      var line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: count), as: UTF8.self)[...]
      if line.hasSuffix("\n") { line = line.dropLast() }
      try reader.add(line)
    }
    return try reader.contents()
  }

  /// What the journal text `text` (read from `path`, named in messages) holds.
  public static func contents(of text: String, path: String) throws(JournalError) -> Contents {
    var reader = Reader(path: path)
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) { try reader.add(line) }
    return try reader.contents()
  }
}
