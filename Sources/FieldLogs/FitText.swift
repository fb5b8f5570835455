import CGSL

/// Numbers as `fit.csv`, the fitted scenario and the console write them.
enum FitText {
  /// Up to `digits` significant digits, no exponent for ordinary sizes, no trailing zeros.
  static func number(_ value: Double, digits: Int = 4) -> String {
    guard value.isFinite else { return "\(value)" }
    // Past about 1e15 a fixed-point text would not fit 64 bits, below 1e-9 it would be all zeros: `digits`
    // significant digits with an exponent (a p-value of 2e-12 reads "2.25e-12", not seventeen digits).
    if abs(value) >= 1e15 || (value != 0 && abs(value) < 1e-9) { return scientific(value, digits: digits) }
    if value == 0 { return "0" }
    let magnitude = Int((log10(abs(value))).rounded(.down))
    let decimals = Swift.max(0, Swift.min(9, digits - 1 - magnitude))
    var text = fixed(value, decimals)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text
  }

  /// `value` as `m.mmme-N` with `digits` significant digits (trailing zeros dropped).
  static func scientific(_ value: Double, digits: Int) -> String {
    let exponent = Int(log10(abs(value)).rounded(.down))
    var mantissa = value / pow(10, Double(exponent))
    var shift = exponent
    // Rounding may carry to 10.0.
    if abs((mantissa * pow(10, Double(digits - 1))).rounded()) >= pow(10, Double(digits)) {
      mantissa /= 10
      shift += 1
    }
    var text = fixed(mantissa, Swift.max(0, digits - 1))
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return "\(text)e\(shift)"
  }

  /// A duration for a scenario file: seconds with a unit.
  static func seconds(_ value: Double) -> String { "\(number(value))s" }

  /// `value` with exactly `decimals` decimals.
  static func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
    let scale = (0..<decimals).reduce(1.0) { value, _ in value * 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int64(scaled / scale)
    let fraction = Int64(scaled - Double(whole) * scale)
    var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
    if decimals > 0 {
      let digits = String(fraction)
      text += "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
    return text
  }
}
