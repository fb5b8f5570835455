/// ISO-8601 times as a phone's app writes them (docs/field-logs.md "The format"): the local wall clock to the
/// millisecond with the phone's UTC offset (`Z` at offset zero), written here without the project's own
/// formatter, so that the reader is tested against text it did not make.
enum LocalClockText {
  /// `2026-01-05T00:00:00Z` in seconds since 1970 (UTC): second 0 of the independent logs.
  static let epochSeconds: Int64 = 1_767_571_200

  /// The time `seconds` after ``epochSeconds`` on a clock `offsetSeconds` ahead of UTC (0 writes `Z`).
  static func text(_ seconds: Double, offsetSeconds: Int) -> String {
    let milliseconds = (epochSeconds + Int64(offsetSeconds)) * 1_000 + Int64((seconds * 1_000).rounded(.down))
    let (days, ofDay) = floorDivision(milliseconds, 86_400_000)
    let (year, month, day) = civilDate(days)
    let clock =
      "\(pad(Int(ofDay / 3_600_000), 2)):\(pad(Int(ofDay / 60_000 % 60), 2)):\(pad(Int(ofDay / 1_000 % 60), 2))"
      + ".\(pad(Int(ofDay % 1_000), 3))"
    return "\(year)-\(pad(month, 2))-\(pad(day, 2))T\(clock)\(offset(offsetSeconds))"
  }

  /// `Z`, or `+05:30`.
  static func offset(_ seconds: Int) -> String {
    guard seconds != 0 else { return "Z" }
    let minutes = abs(seconds) / 60
    return "\(seconds < 0 ? "-" : "+")\(pad(minutes / 60, 2)):\(pad(minutes % 60, 2))"
  }

  /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
  static func civilDate(_ days: Int64) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shifted = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shifted + 2) / 5 + 1
    let month = shifted < 10 ? shifted + 3 : shifted - 9
    return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
  }

  static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let remainder = (value % divisor + divisor) % divisor
    return ((value - remainder) / divisor, remainder)
  }

  static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
  }
}
