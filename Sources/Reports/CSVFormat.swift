/// Formatting shared by every CSV report: fixed decimals (so equal runs give equal bytes), quoting per
/// RFC 4180, empty cells for values that do not exist (read as NA by pandas, R and DuckDB).
public enum CSVFormat {
  /// A number with `decimals` digits after the point; empty for NaN or infinity.
  public static func number(_ value: Double, decimals: Int = 4) -> String {
    guard value.isFinite else { return "" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    guard abs(scaled) < 9e15 else { return "\(value)" }
    let whole = Int64(scaled)
    let sign = whole < 0 ? "-" : ""
    let magnitude = whole.magnitude
    let integer = magnitude / UInt64(scale)
    guard decimals > 0 else { return "\(sign)\(integer)" }
    var fraction = String(magnitude % UInt64(scale))
    while fraction.count < decimals { fraction = "0" + fraction }
    return "\(sign)\(integer).\(fraction)"
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
