import Reports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads field logs (JSON Lines, docs/field-logs.md) one line at a time, without holding a file in memory.
/// Events and fields it does not know are skipped and counted; a line that is not a JSON object, or a known
/// field of the wrong type, is an error naming the file and line.
public struct FieldLogReader {
  /// Lines read (blank lines included).
  public private(set) var lines = 0
  /// Records read, of events it knows.
  public private(set) var records = 0
  /// Lines skipped for an event it does not know, by event name.
  public private(set) var unknownEvents: [String: Int] = [:]
  /// Fields skipped, by `event.field`.
  public private(set) var unknownFields: [String: Int] = [:]

  /// No log file may be larger (1 TiB); no line longer (1 MiB).
  public static let fileLimit = 1 << 40
  public static let lineLimit = 1 << 20

  public init() {}

  /// Calls `body` with every record of the file at `path` and its 1-based line, in file order. With `jobs`
  /// above 1 the lines are parsed on that many threads, a batch at a time (``ParallelLines``), and handed to
  /// `body` in file order all the same: the records, the counts and the first error are those of one thread.
  public mutating func read(
    path: String, jobs: Int = 1, _ body: (FieldLogEntry, Int) throws(FieldLogError) -> Void
  ) throws(FieldLogError) {
    guard jobs > 1 else {
      lines += try FieldLogReader.eachLine(path: path) { (bytes, number) throws(FieldLogError) in
        if let record = try entry(bytes, path: path, line: number) { try body(record, number) }
      }
      return
    }
    var batch = ParallelLines(path: path, jobs: jobs)
    do {
      lines += try FieldLogReader.eachLine(path: path) { (bytes, number) throws(FieldLogError) in
        if batch.add(bytes, number: number) { try batch.flush(into: &self, body) }
      }
    } catch {
      // An error in reading (a line too long) comes after the lines before it, whose own errors come first.
      try batch.flush(into: &self, body)
      throw error
    }
    try batch.flush(into: &self, body)
  }

  /// Calls `body` with the bytes of every line of the file at `path` (without its newline) and its 1-based
  /// number, reading a block at a time; returns the lines read. A line over ``lineLimit`` is an error.
  static func eachLine(path: String, _ body: ([UInt8], Int) throws(FieldLogError) -> Void) throws(FieldLogError)
    -> Int
  {
    let handle: UnsafeMutablePointer<FILE>
    do {
      handle = try TextFile.open(path, limit: FieldLogReader.fileLimit)
    } catch {
      throw FieldLogError(file: path, line: nil, error.reason)
    }
    defer { fclose(handle) }
    var block = [UInt8](repeating: 0, count: 1 << 16)
    var line: [UInt8] = []
    var number = 0
    while true {
      let count = fread(&block, 1, block.count, handle)
      if count == 0 {
        if ferror(handle) != 0 {
          throw FieldLogError(file: path, line: nil, "cannot read: \(String(cString: strerror(errno)))")
        }
        break
      }
      var start = 0
      for index in 0..<count where block[index] == 0x0A {
        line.append(contentsOf: block[start..<index])
        number += 1
        try body(line, number)
        line.removeAll(keepingCapacity: true)
        start = index + 1
      }
      line.append(contentsOf: block[start..<count])
      guard line.count <= FieldLogReader.lineLimit else {
        throw FieldLogError(file: path, line: number + 1, "a line longer than 1 MiB")
      }
    }
    if !line.isEmpty {
      number += 1
      try body(line, number)
    }
    return number
  }

  /// What one line holds: nothing (a blank line), a record with the fields it did not know, or an event it
  /// does not know.
  enum ParsedLine {
    case blank
    case record(FieldLogEntry, unknownFields: [String])
    case unknownEvent(String)
  }

  /// The record on one line (`path` and `line` name it in errors); nil for a blank line or an event it does
  /// not know.
  public mutating func entry(_ bytes: [UInt8], path: String, line: Int) throws(FieldLogError) -> FieldLogEntry? {
    count(try FieldLogReader.parse(bytes[...], path: path, line: line))
  }

  /// Counts what a line held; its record, if any.
  mutating func count(_ parsed: ParsedLine) -> FieldLogEntry? {
    switch parsed {
    case .blank: return nil
    case .unknownEvent(let name):
      unknownEvents[name, default: 0] += 1
      return nil
    case .record(let entry, let unknown):
      for field in unknown { unknownFields["\(entry.event.name).\(field)", default: 0] += 1 }
      records += 1
      return entry
    }
  }

  /// What one line holds; an error names the file and line.
  static func parse(_ bytes: ArraySlice<UInt8>, path: String, line: Int) throws(FieldLogError) -> ParsedLine {
    var bytes = bytes
    // Narrowed as slices, never copied.
    if bytes.last == 0x0D { bytes = bytes.dropLast() }
    if line == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return .blank }
    let object: [(String, JSONValue)]?
    do {
      object = try FlatJSONObject.members(bytes)
    } catch {
      throw FieldLogReader.notJSON(bytes, error, path: path, line: line)
    }
    guard let members = object else {
      throw FieldLogError(file: path, line: line, "expected a JSON object, e.g. {\"t\": ..., \"event\": ...}")
    }
    var fields = FieldLogFields(members: members, path: path, line: line)
    let time = try fields.time("t", required: true)!
    let device = try fields.device()
    let name = try fields.text("event", required: true, stringOnly: true)!
    guard let event = try FieldLogFields.event(name, &fields) else { return .unknownEvent(name) }
    return .record(FieldLogEntry(time: time, device: device, event: event), unknownFields: fields.unread)
  }

  /// The error for a line that is not JSON: text that is not UTF-8 (at its first bad byte), a line that
  /// does not begin as an object, or where the JSON goes wrong.
  static func notJSON(_ bytes: ArraySlice<UInt8>, _ failure: FlatJSONObject.Failure, path: String, line: Int)
    -> FieldLogError
  {
    switch failure {
    case .notUTF8(let offset):
      return FieldLogError(file: path, line: line, "not UTF-8 text (an invalid byte at byte \(offset + 1))")
    case .json(let error):
      guard let first = bytes.first(where: { $0 != 0x20 && $0 != 0x09 }), first == 0x7B else {
        let shown = String(decoding: bytes.prefix(40), as: UTF8.self)
        return FieldLogError(
          file: path, line: line,
          "expected a JSON object, e.g. {\"t\": ..., \"device\": ..., \"event\": ...}; the line begins \""
            + shown + (bytes.count > 40 ? "..." : "") + "\"")
      }
      return FieldLogError(file: path, line: line, "not a JSON object (\(error.message) at byte \(error.offset + 1))")
    }
  }
}
