import Reports

/// Text for the page: escaping and number formats.
enum HTMLText {
  /// `text` safe inside an element or a quoted attribute.
  static func escape(_ text: String) -> String {
    MarkupText.escaped(text)
  }

  /// A number with `decimals` digits after the point; "–" when there is nothing to show.
  static func number(_ value: Double, decimals: Int) -> String {
    value.isFinite ? CSVFormat.number(value, decimals: decimals) : "–"
  }

  /// `text` as an HTML id: letters and digits kept, anything else a hyphen.
  static func slug(_ text: String) -> String {
    String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
  }

  static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// A figure as it reads best: up to 4 significant decimals, trailing zeros dropped.
  static func figure(_ text: String) -> String {
    guard let value = Double(text), value.isFinite else { return text.isEmpty ? "–" : text }
    let magnitude = abs(value)
    let decimals = magnitude >= 1_000 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 4
    var shown = CSVFormat.number(value, decimals: decimals)
    if shown.contains(".") {
      while shown.hasSuffix("0") { shown.removeLast() }
      if shown.hasSuffix(".") { shown.removeLast() }
    }
    return shown
  }
}
