import SimulationEngine

/// Parsing of the unit-carrying scalars scenario files use: `90s`, `15m`, `30KB`, `"07:30"`.
enum Units {
  static let durationUnits: [(suffix: String, scale: Double)] = [
    ("us", 1e-6), ("ms", 1e-3), ("s", 1), ("min", 60), ("m", 60), ("h", 3_600), ("d", 86_400),
  ]
  static let sizeUnits: [(suffix: String, scale: Double)] = [
    ("KiB", 1_024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("B", 1),
  ]

  /// A duration in seconds, from a number followed by a unit; nil if malformed.
  static func seconds(_ text: String) -> Double? { number(text, units: durationUnits) }

  /// A size in bytes, from a number followed by B, KB, MB, GB (powers of 1000) or KiB, MiB, GiB (of 1024).
  static func bytes(_ text: String) -> Double? { number(text, units: sizeUnits) }

  static let rateUnits: [(suffix: String, scale: Double)] = [
    ("Gbps", 1e9), ("Mbps", 1e6), ("kbps", 1e3), ("bps", 1),
  ]

  /// A data rate in bits per second, from a number followed by bps, kbps, Mbps or Gbps.
  static func bitsPerSecond(_ text: String) -> Double? { number(text, units: rateUnits) }

  static let powerUnits: [(suffix: String, scale: Double)] = [("mW", 1e-3), ("kW", 1e3), ("W", 1)]
  /// Energies; `mAh` and `Ah` convert at the 3.88 V nominal voltage of the iPhone batteries (docs/model.md,
  /// Batteries).
  static let energyUnits: [(suffix: String, scale: Double)] = [
    ("mWh", 3.6), ("kWh", 3.6e6), ("Wh", 3_600), ("mAh", 3.6 * 3.88), ("Ah", 3_600 * 3.88), ("kJ", 1e3), ("J", 1),
  ]

  /// A power in watts, from a number followed by mW, W or kW.
  static func watts(_ text: String) -> Double? { number(text, units: powerUnits) }

  /// An energy in joules, from a number followed by J, kJ, Wh, mWh, kWh, mAh or Ah.
  static func joules(_ text: String) -> Double? { number(text, units: energyUnits) }

  /// A fraction from `20%` or a plain number in [0, 1].
  static func fraction(_ text: String) -> Double? {
    let text = text.trimmingWhitespace
    if text.hasSuffix("%") { return Double(text.dropLast().trimmingWhitespace).map { $0 / 100 } }
    return Double(text)
  }

  /// A number followed by one of `units` (tried in order: "5ms" is not "5m" + "s"), scaled; nil if malformed.
  private static func number(_ text: String, units: [(suffix: String, scale: Double)]) -> Double? {
    let text = text.trimmingWhitespace
    for unit in units where text.hasSuffix(unit.suffix) {
      let number = text.dropLast(unit.suffix.count).trimmingWhitespace
      // Decimal notation only: Swift's Double() also reads hexadecimal (`0x10`) and words (`inf`).
      guard number.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) else { continue }
      if let value = Double(number), value.isFinite {
        return value * unit.scale
      }
    }
    return nil
  }

  /// `HH:MM` on a 24-hour clock.
  static func timeOfDay(_ text: String) -> (hours: Int, minutes: Int)? {
    let parts = text.trimmingWhitespace.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[1].count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
      (0..<24).contains(hours), (0..<60).contains(minutes)
    else { return nil }
    return (hours, minutes)
  }
}

extension StringProtocol {
  var trimmingWhitespace: String {
    var view = Substring(self)
    while let first = view.first, first.isWhitespace { view = view.dropFirst() }
    while let last = view.last, last.isWhitespace { view = view.dropLast() }
    return String(view)
  }
}
