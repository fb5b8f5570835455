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
      text = try TextFile.read(path)
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

  /// The cell as a number; nil when empty or not a number.
  public static func number(_ cell: String) -> Double? { cell.isEmpty ? nil : Double(cell) }
}
