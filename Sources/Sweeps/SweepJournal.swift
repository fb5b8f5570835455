import Reports
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
/// Format: a header `widgetsim-sweep-journal 1 FINGERPRINT TASKS`, then per task lines
/// `v TASK METRIC WIDGET UNIT VALUE` (tab-separated) and a closing `done TASK`.
public final class SweepJournal: Sendable {
  public struct JournalError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
  }

  public let path: String
  /// File descriptor for appending (owned: closed on deinit). Writes go through `lock`.
  private let descriptor: Int32
  private let lock = Mutex<Void>(())

  /// Opens (creating if needed) the journal for `fingerprint` and returns it with the tasks already done.
  public static func open(path: String, fingerprint: String, taskCount: Int) throws(JournalError)
    -> (SweepJournal, [Int: [MetricValue]])
  {
    var done: [Int: [MetricValue]] = [:]
    let header = "widgetsim-sweep-journal 1 \(fingerprint) \(taskCount)"
    if let text = try? TextFile.read(path, lossy: true) {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      guard let first = lines.first, String(first) == header else {
        throw JournalError(
          message:
            "\(path) belongs to a different sweep (or different options); use another --out, or delete it to start over"
        )
      }
      done = parse(lines.dropFirst())
    }
    // Start from a compact copy holding only finished tasks, renamed into place: a record torn by a crash
    // must not run into the lines this run appends.
    let temporary = "\(path).tmp-\(getpid())"
    let fresh = AtomicFile.createExclusively(temporary)
    guard fresh >= 0 else {
      throw JournalError(message: "cannot open \(temporary): \(String(cString: strerror(errno)))")
    }
    let journal = SweepJournal(path: path, descriptor: fresh)
    try journal.append(header + "\n")
    for task in done.keys.sorted() { try journal.record(task: task, values: done[task] ?? []) }
    guard rename(temporary, path) == 0 else {
      throw JournalError(message: "cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
    }
    return (journal, done)
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
    var text = ""
    for value in values {
      text += "v\t\(task)\t\(value.metric)\t\(value.widget)\t\(value.unit)\t\(value.value)\n"
    }
    text += "done\t\(task)\n"
    try append(text)
  }

  private func append(_ text: String) throws(JournalError) {
    let failed: Bool = lock.withLock { _ in
      var text = text
      return !AtomicFile.writeAll(&text, to: descriptor) || fsync(descriptor) != 0
    }
    if failed { throw JournalError(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
  }

  /// Finished tasks in journal lines: values of tasks with a `done` line; anything torn is ignored.
  static func parse(_ lines: ArraySlice<Substring>) -> [Int: [MetricValue]] {
    var pending: [Int: [MetricValue]] = [:]
    var done: [Int: [MetricValue]] = [:]
    for line in lines {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      if fields.count == 6, fields[0] == "v", let task = Int(fields[1]), let value = Double(fields[5]) {
        pending[task, default: []].append(
          MetricValue(metric: String(fields[2]), widget: String(fields[3]), unit: String(fields[4]), value: value))
      } else if fields.count == 2, fields[0] == "done", let task = Int(fields[1]) {
        done[task] = pending.removeValue(forKey: task) ?? []
      }
    }
    return done
  }

  /// Reads a journal without opening it for writing (for `merge`).
  public static func load(path: String) throws(JournalError) -> (
    fingerprint: String, tasks: Int, done: [Int: [MetricValue]]
  ) {
    guard let text = try? TextFile.read(path, lossy: true) else { throw JournalError(message: "cannot read \(path)") }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let header = lines.first.map { $0.split(separator: " ") } ?? []
    guard header.count == 4, header[0] == "widgetsim-sweep-journal", header[1] == "1", let tasks = Int(header[3]) else {
      throw JournalError(message: "\(path) is not a widgetsim sweep journal")
    }
    return (String(header[2]), tasks, parse(lines.dropFirst()))
  }
}
