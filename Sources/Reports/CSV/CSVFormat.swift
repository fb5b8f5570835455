/// Formatting shared by every CSV report: fixed decimals (so equal runs give equal bytes), quoting per
/// RFC 4180, empty cells for values that do not exist (read as NA by pandas, R and DuckDB).
public enum CSVFormat {
  /// A number with `decimals` digits after the point; empty for NaN or infinity.
  public static func number(_ value: Double, decimals: Int = 4) -> String {
    withDigits(value, decimals: decimals) { String(decoding: $0, as: UTF8.self) }
  }

  /// Hands `body` the UTF-8 of ``number(_:decimals:)``, written digit by digit into a buffer on the stack.
  ///
  /// Reports write hundreds of thousands of numbers (a week's server_load.csv alone 190,000); built from
  /// interpolated and zero-padded strings each cost about 2,000 instructions. The text is the same: the value
  /// times 10^decimals rounded half away from zero, its whole part, a point and the fraction's digits,
  /// zero-padded; `-` only when the rounded value is below zero; Swift's own text for a value too large to
  /// round exactly; nothing for NaN or infinity.
  @inline(__always)
  static func withDigits<Result>(
    _ value: Double, decimals: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    guard value.isFinite else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    guard abs(scaled) < 9e15 else {
      var text = "\(value)"
      return text.withUTF8 { body($0) }
    }
    let whole = Int64(scaled)
    // At most 16 digits (below 9e15), a point, a sign, and the zeros that pad a long fraction.
    let capacity = 20 + decimals
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
      var magnitude = whole.magnitude
      var start = capacity
      if decimals > 0 {
        for _ in 0..<decimals {
          start -= 1
          buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
          magnitude /= 10
        }
        start -= 1
        buffer[start] = UInt8(ascii: ".")
      }
      start = writeDigits(magnitude, into: buffer, before: start)
      if whole < 0 {
        start -= 1
        buffer[start] = UInt8(ascii: "-")
      }
      return body(UnsafeBufferPointer(rebasing: buffer[start..<capacity]))
    }
  }

  /// Writes the decimal digits of `value` (at least one) into `buffer`, ending just before `end`; returns
  /// where they start.
  @inline(__always)
  static func writeDigits(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, before end: Int) -> Int {
    var start = end
    var rest = value
    repeat {
      start -= 1
      buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    } while rest > 0
    return start
  }

  /// A number written by ``number(_:decimals:)`` without its trailing zeros (`300.000000` -> `300`,
  /// `0.250000` -> `0.25`).
  public static func trimmed(_ number: String) -> String {
    guard number.contains(".") else { return number }
    var text = number
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }

  /// A text cell, quoted when it holds a comma, quote or line break. A cell a spreadsheet would run as a
  /// formula (one beginning with `=`, `+`, `-`, `@`, a tab or a carriage return, unless it is a plain number
  /// such as `-0.5`) gets a leading `'` and quotes, as OWASP's CSV-injection guidance recommends.
  ///
  /// Read as UTF-8 bytes, as a CSV reader reads them: a comma with a combining accent, or a CR LF, is one
  /// character to Swift but still a comma or a line break in the file, and is quoted. Every byte looked for is
  /// ASCII, which UTF-8 never uses inside another scalar. Most cells (ids, names, units) have none: their bytes
  /// are read once, and the cell is returned as it is.
  public static func text(_ value: String) -> String {
    let utf8 = value.utf8
    let formula = (utf8.first.map(CSVFormat.startsFormula) ?? false) && Double(value) == nil
    guard formula || utf8.contains(where: CSVFormat.breaksCell) else { return value }
    return (formula ? "\"'" : "\"") + value.doublingQuotes + "\""
  }

  /// Whether a first byte is one that makes a spreadsheet read a cell as a formula.
  @inline(__always)
  private static func startsFormula(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), UInt8(ascii: "\t"),
      UInt8(ascii: "\r"):
      true
    default: false
    }
  }

  /// Whether a byte is a comma, a quote or a line break (what makes ``text(_:)`` quote a cell).
  @inline(__always)
  private static func breaksCell(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n")
      || byte == UInt8(ascii: "\r")
  }
}

extension String {
  /// The text with each quote doubled (RFC 4180), byte by byte: a quote is ASCII, so the result is UTF-8 too.
  fileprivate var doublingQuotes: String {
    let quote = UInt8(ascii: "\"")
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count + 2)
    for byte in utf8 {
      bytes.append(byte)
      if byte == quote { bytes.append(quote) }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
