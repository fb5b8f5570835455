/// A CSV report read back whole, with its columns found by name (for `widgetsim report`).
public struct CSVTable: Sendable {
  public struct ReadError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let message: String
    public var description: String { "\(path): \(message)" }
  }

  public let path: String
  public let header: [String]
  /// Every row after the header, each with the header's number of cells.
  public let rows: [[String]]

  public init(path: String) throws(ReadError) {
    let text: String
    do {
      text = try TextFile.read(path, limit: InputLimits.chartedReportBytes)
    } catch {
      throw ReadError(path: path, message: error.reason)
    }
    let lines = CSVLines.parse(text)
    guard let header = lines.first, !header.isEmpty else { throw ReadError(path: path, message: "empty file") }
    for (index, row) in lines.enumerated() where row.count != header.count {
      throw ReadError(path: path, message: "line \(index + 1) has \(row.count) cells, the header \(header.count)")
    }
    self.path = path
    self.header = header
    rows = Array(lines.dropFirst())
  }

  /// A table made in code (e.g. a selection of another's rows).
  public init(path: String, header: [String], rows: [[String]]) {
    self.path = path
    self.header = header
    self.rows = rows
  }

  /// The position of column `name`.
  public func column(_ name: String) throws(ReadError) -> Int {
    guard let index = header.firstIndex(of: name) else {
      throw ReadError(path: path, message: "no column '\(name)' (columns: \(header.joined(separator: ", ")))")
    }
    return index
  }

  /// A run report's rows of its first replication when it has a `replication` column (`run --detail`),
  /// else every row (the report gives the mean over replications); and how to name them in a caption.
  public var firstReplication: (rows: [[String]], name: String) {
    guard let column = header.firstIndex(of: "replication") else { return (rows, "the mean over replications") }
    let first = rows.first?[column]
    return (rows.filter { $0[column] == first }, "replication \(first ?? "0")")
  }

  /// Replications a run report's rows hold: the distinct values of its `replication` column, or 1 for a
  /// report of the mean over replications (no such column).
  public var replicationCount: Int {
    guard let column = header.firstIndex(of: "replication") else { return 1 }
    return max(1, Set(rows.map { $0[column] }).count)
  }

  /// The cell as a number; nil when empty or not a number.
  public static func number(_ cell: String) -> Double? { cell.isEmpty ? nil : Double(cell) }
}
