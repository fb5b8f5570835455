import Reports
import WidgetModel

/// Reads the server's send log (CSV, docs/field-logs.md) one line at a time: a header naming the columns
/// `t`, `device`, `push` and, optionally, `priority`, then one row per push sent. Pushes of a type the
/// calibration does not use (alerts, Live Activity updates) and columns it does not know are skipped and
/// counted; a row that cannot be read is an error naming the file and line.
public struct ServerLogReader {
  /// The header `run --server-log` writes.
  public static let header = "t,device,push,priority"

  /// Rows read, of the push types it uses.
  public private(set) var records = 0
  /// Rows skipped, by push type.
  public private(set) var skippedPushes: [String: Int] = [:]
  /// Columns ignored, by name.
  public private(set) var unknownColumns: [String] = []

  public init() {}

  /// The push types read, by the names a send log may give them (the APNs `apns-push-type` names too).
  static let pushNames = [String: PushKind](
    uniqueKeysWithValues: PushKind.allCases.flatMap { kind in
      [(kind.rawValue, kind), (kind.row.apnsPushType.description, kind)]
    })

  /// The header's columns, once read.
  private var columns: (t: Int, device: Int, push: Int, priority: Int?)?

  /// Calls `body` with every send of the file at `path` (as an entry at the send's UTC time) and its line.
  public mutating func read(path: String, _ body: (FieldLogEntry, Int) throws(FieldLogError) -> Void)
    throws(FieldLogError)
  {
    columns = nil
    var reader = self
    defer { self = reader }
    _ = try FieldLogReader.eachLine(path: path) { (bytes, number) throws(FieldLogError) in
      if let entry = try reader.entry(bytes, path: path, line: number) { try body(entry, number) }
    }
    if reader.columns == nil {
      throw FieldLogError(file: path, line: nil, "empty file: expected the header \(Self.header)")
    }
  }

  /// The send on one line of a file read line by line from its first (`path` and `line` name it in
  /// errors): nil for the header, a blank line, or a push type it does not use.
  public mutating func entry(_ bytes: [UInt8], path: String, line: Int) throws(FieldLogError) -> FieldLogEntry? {
    var bytes = bytes
    if bytes.last == 0x0D { bytes.removeLast() }
    if line == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    let cells = try ServerLogReader.cells(bytes, path: path, line: line)
    guard let known = columns else {
      columns = try columns(cells, path: path, line: line)
      return nil
    }
    guard cells.count > 1 || cells.first?.isEmpty == false else { return nil }
    return try entry(cells, known, path: path, line: line)
  }

  /// The cells of one row (RFC 4180 quoting); a row that does not end on its line is an error.
  static func cells(_ bytes: [UInt8], path: String, line: Int) throws(FieldLogError) -> [String] {
    // Quotes come in pairs (a quoted cell's two, and `""` inside one): an odd count leaves a cell open.
    guard bytes.reduce(0, { $0 + ($1 == 0x22 ? 1 : 0) }) % 2 == 0 else {
      throw FieldLogError(file: path, line: line, "a quoted cell does not close on its line")
    }
    return CSVLines.parse(String(decoding: bytes, as: UTF8.self)).first ?? []
  }

  /// The header's columns by name.
  mutating func columns(_ cells: [String], path: String, line: Int) throws(FieldLogError) -> (
    t: Int, device: Int, push: Int, priority: Int?
  ) {
    func index(_ name: String) throws(FieldLogError) -> Int {
      guard let index = cells.firstIndex(of: name) else {
        throw FieldLogError(
          file: path, line: line,
          "the header has no column \"\(name)\": expected \(Self.header) (priority optional, any order)")
      }
      return index
    }
    for name in cells where !["t", "device", "push", "priority"].contains(name) && !unknownColumns.contains(name) {
      unknownColumns.append(name)
    }
    return (try index("t"), try index("device"), try index("push"), cells.firstIndex(of: "priority"))
  }

  /// One row's send; nil for a push type it does not use.
  mutating func entry(
    _ cells: [String], _ columns: (t: Int, device: Int, push: Int, priority: Int?), path: String, line: Int
  ) throws(FieldLogError) -> FieldLogEntry? {
    let needed = Swift.max(columns.t, columns.device, columns.push, columns.priority ?? 0) + 1
    guard cells.count >= needed else {
      throw FieldLogError(file: path, line: line, "\(cells.count) cells; the header names \(needed) or more")
    }
    guard let time = FieldLogTime(text: cells[columns.t]) else {
      throw FieldLogError(
        file: path, line: line,
        "\"t\": expected an ISO-8601 time with a UTC offset, e.g. 2026-01-05T07:30:00Z, got \"\(cells[columns.t])\"")
    }
    let device = cells[columns.device]
    guard !device.isEmpty else { throw FieldLogError(file: path, line: line, "\"device\": expected a phone's id") }
    let name = cells[columns.push]
    guard let push = ServerLogReader.pushNames[name.lowercased()] else {
      guard !name.isEmpty else {
        throw FieldLogError(file: path, line: line, "\"push\": expected silent or widget (or another type, skipped)")
      }
      skippedPushes[name, default: 0] += 1
      return nil
    }
    var priority: Int?
    if let column = columns.priority, !cells[column].isEmpty {
      guard let value = Int(cells[column]), (1...10).contains(value) else {
        throw FieldLogError(
          file: path, line: line, "\"priority\": expected an APNs priority 1-10, got \"\(cells[column])\"")
      }
      priority = value
    }
    records += 1
    return FieldLogEntry(time: time, device: device, event: .serverSent(push: push, priority: priority))
  }
}
