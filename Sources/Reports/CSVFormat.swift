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
  public static func text(_ value: String) -> String {
    if let first = value.unicodeScalars.first, formulaStarts.contains(first), Double(value) == nil {
      return "\"'" + value.replacingQuotes + "\""
    }
    guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
    return "\"" + value.replacingQuotes + "\""
  }

  /// First characters that make a spreadsheet read a cell as a formula.
  static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
}

extension String {
  fileprivate var replacingQuotes: String {
    var result = ""
    for character in self {
      result.append(character)
      if character == "\"" { result.append("\"") }
    }
    return result
  }
}
