#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a CSV file row by row, as ``CSVLines`` reads text, without holding the file in memory: for inputs
/// other programs hand to widgetsim (a stored baseline), whose size only its limit bounds.
public enum CSVStream {
  /// Calls `body` with each row of the file at `path` (cells unquoted, a leading byte order mark dropped) and
  /// its 1-based line number; a file over `limit` bytes is refused before anything is read.
  public static func forEachRow(
    path: String, limit: Int, _ body: ([String], Int) throws -> Void
  ) throws {
    let handle = try TextFile.open(path, limit: limit)
    defer { fclose(handle) }
    var block = [UInt8](repeating: 0, count: 1 << 16)
    var row: [String] = []
    var cell: [UInt8] = []
    var quoted = false
    var quoteSeen = false  // a quote inside a quoted cell: the next byte decides
    var line = 1
    var rowLine = 1
    var first = true
    func endCell() throws {
      guard let text = String(validating: cell, as: UTF8.self) else {
        throw TextFile.ReadError(path: "\(path):\(line)", reason: "not UTF-8 text")
      }
      row.append(text)
      cell.removeAll(keepingCapacity: true)
    }
    while let bytes = try readBlock(handle, into: &block, path: path, first: &first) {
      for byte in block[bytes] {
        if quoted {
          if quoteSeen {
            quoteSeen = false
            if byte == UInt8(ascii: "\"") {
              cell.append(byte)  // "" inside quotes is one quote
              continue
            }
            quoted = false  // the quote closed the cell's quoted part; read this byte as unquoted
          } else {
            if byte == UInt8(ascii: "\"") {
              quoteSeen = true
            } else {
              if byte == UInt8(ascii: "\n") { line += 1 }
              cell.append(byte)
            }
            continue
          }
        }
        switch byte {
        case UInt8(ascii: "\""): quoted = true
        case UInt8(ascii: ","): try endCell()
        case UInt8(ascii: "\r"): continue  // CRLF: the LF ends the line
        case UInt8(ascii: "\n"):
          try endCell()
          try body(row, rowLine)
          row.removeAll(keepingCapacity: true)
          line += 1
          rowLine = line
        default: cell.append(byte)
        }
      }
    }
    if !cell.isEmpty || !row.isEmpty {
      try endCell()
      try body(row, rowLine)
    }
  }

  /// Reads the file's next block into `block`: the range of its bytes to parse, past a byte order mark at the
  /// start of the `first` block; nil at the end of the file. Once a block, outside the per-byte loop.
  private static func readBlock(
    _ handle: UnsafeMutablePointer<FILE>, into block: inout [UInt8], path: String, first: inout Bool
  ) throws(TextFile.ReadError) -> Range<Int>? {
    let count = fread(&block, 1, block.count, handle)
    if count == 0 {
      if ferror(handle) != 0 {
        throw TextFile.ReadError(path: path, reason: "cannot read: \(String(cString: strerror(errno)))")
      }
      return nil
    }
    var start = 0
    if first {
      first = false
      if count >= 3 && block[0] == 0xEF && block[1] == 0xBB && block[2] == 0xBF { start = 3 }
    }
    return start..<count
  }
}
