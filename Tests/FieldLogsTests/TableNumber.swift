/// Numbers for the printed table: four significant digits.
enum TableNumber {
  static func number(_ value: Double) -> String {
    let magnitude = abs(value)
    let decimals = magnitude >= 1_000 ? 0 : magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : magnitude >= 1 ? 3 : 4
    var scaled = value
    for _ in 0..<decimals { scaled *= 10 }
    let whole = Int(scaled.rounded())
    guard decimals > 0 else { return String(whole) }
    let digits = LocalClockText.pad(abs(whole), decimals + 1)
    return (whole < 0 ? "-" : "") + digits.dropLast(decimals) + "." + digits.suffix(decimals)
  }
}
