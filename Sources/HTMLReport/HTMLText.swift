import Reports

/// Text for the page: escaping and number formats.
enum HTMLText {
  /// `text` safe inside an element or a quoted attribute.
  static func escape(_ text: String) -> String {
    MarkupText.escaped(text)
  }

  /// A number with `decimals` digits after the point and thousands separators (`12,345.6`); "–" when there
  /// is nothing to show.
  static func number(_ value: Double, decimals: Int) -> String {
    value.isFinite ? grouped(CSVFormat.number(value, decimals: decimals)) : "–"
  }

  /// A formatted number with a comma between each three digits of its whole part: `1234567.5` ->
  /// `1,234,567.5`. For people only: the CSV reports keep plain numbers.
  static func grouped(_ number: String) -> String {
    let sign = number.hasPrefix("-") ? "-" : ""
    let unsigned = number.dropFirst(sign.count)
    let whole = unsigned.prefix { $0.isASCII && $0.isNumber }
    guard whole.count > 3 else { return number }
    var digits = ""
    for (offset, digit) in whole.enumerated() {
      if offset > 0 && (whole.count - offset) % 3 == 0 { digits += "," }
      digits.append(digit)
    }
    return sign + digits + unsigned.dropFirst(whole.count)
  }

  /// `text` as an HTML id: letters and digits kept, anything else a hyphen.
  static func slug(_ text: String) -> String {
    String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
  }

  /// An hour of day (`23.5`) as a clock time (`23:30`), rounded to the minute; "–" when there is none.
  static func clock(_ text: String) -> String {
    guard let hours = Double(text), hours.isFinite else { return text.isEmpty ? "–" : text }
    let minutes = Int((Swift.min(Swift.max(hours, 0), 24) * 60).rounded())
    return ClockText.minutes(minutes)
  }

  /// A figure as it reads best: up to 4 significant decimals, trailing zeros dropped.
  static func figure(_ text: String) -> String {
    guard let value = Double(text), value.isFinite else { return text.isEmpty ? "–" : text }
    let magnitude = abs(value)
    let decimals = magnitude >= 1_000 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 4
    return grouped(CSVFormat.trimmed(CSVFormat.number(value, decimals: decimals)))
  }
}
