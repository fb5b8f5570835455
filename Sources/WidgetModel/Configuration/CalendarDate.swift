/// A day of the proleptic Gregorian calendar, as days since 1970-01-01: the UTC date of a run's day 0
/// (`start_date`), which gives `server_load.csv` its timestamps. The model itself has no weekdays or
/// holidays; the date only names the days.
public struct CalendarDate: Sendable, Equatable, Comparable {
  public let daysSince1970: Int

  public init(daysSince1970: Int) {
    self.daysSince1970 = daysSince1970
  }

  /// 2026-01-05, a Monday: the default `start_date`.
  public static let defaultStart = CalendarDate(year: 2026, month: 1, day: 5)!

  /// The date, or nil when the month or day does not exist (years 1 to 9999).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9_999).contains(year), (1...12).contains(month), day >= 1,
      day <= CalendarDate.days(inMonth: month, of: year)
    else { return nil }
    // Days from civil (Hinnant): years start in March so that the leap day is the year's last.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    daysSince1970 = era * 146_097 + dayOfEra - 719_468
  }

  /// A date written `YYYY-MM-DD`; nil for anything else.
  public init?(iso text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// (year, month, day).
  public var components: (year: Int, month: Int, day: Int) {
    // Civil from days (Hinnant).
    let z = daysSince1970 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// `YYYY-MM-DD`.
  public var iso: String {
    let (year, month, day) = components
    return "\(CalendarDate.padded(year, 4))-\(CalendarDate.padded(month, 2))-\(CalendarDate.padded(day, 2))"
  }

  /// The date `days` later.
  public func adding(days: Int) -> CalendarDate {
    CalendarDate(daysSince1970: daysSince1970 + days)
  }

  public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
    lhs.daysSince1970 < rhs.daysSince1970
  }

  static func days(inMonth month: Int, of year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// `value` with leading zeros to `width` digits.
  public static func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
