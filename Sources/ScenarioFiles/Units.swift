import SimulationEngine

/// Parsing of the unit-carrying scalars scenario files use: `90s`, `15m`, `30KB`, `"07:30"`.
enum Units {
  static let durationUnits: [(suffix: String, microseconds: Double)] = [
    ("us", 1), ("ms", 1e3), ("s", 1e6), ("min", 60e6), ("m", 60e6), ("h", 3_600e6), ("d", 86_400e6),
  ]
  static let sizeUnits: [(suffix: String, bytes: Double)] = [
    ("KiB", 1_024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("B", 1),
  ]

  /// A duration in seconds, from a number followed by a unit; nil if malformed.
  static func seconds(_ text: String) -> Double? {
    let text = text.trimmingWhitespace
    for unit in durationUnits where text.hasSuffix(unit.suffix) {
      let number = text.dropLast(unit.suffix.count)
      // "5ms" also ends in "s": only accept when what remains is a number.
      if let value = Double(number), value.isFinite { return value * unit.microseconds / 1e6 }
    }
    return nil
  }

  /// A size in bytes, from a number followed by B, KB, MB, GB (powers of 1000) or KiB, MiB, GiB (of 1024).
  static func bytes(_ text: String) -> Double? {
    let text = text.trimmingWhitespace
    for unit in sizeUnits where text.hasSuffix(unit.suffix) {
      if let value = Double(text.dropLast(unit.suffix.count).trimmingWhitespace), value.isFinite {
        return value * unit.bytes
      }
    }
    return nil
  }

  static let rateUnits: [(suffix: String, bitsPerSecond: Double)] = [
    ("Gbps", 1e9), ("Mbps", 1e6), ("kbps", 1e3), ("bps", 1),
  ]

  /// A data rate in bits per second, from a number followed by bps, kbps, Mbps or Gbps.
  static func bitsPerSecond(_ text: String) -> Double? {
    let text = text.trimmingWhitespace
    for unit in rateUnits where text.hasSuffix(unit.suffix) {
      if let value = Double(text.dropLast(unit.suffix.count).trimmingWhitespace), value.isFinite {
        return value * unit.bitsPerSecond
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
