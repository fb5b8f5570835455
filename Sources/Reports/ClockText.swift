import WidgetModel

/// Times of day and UTC timestamps as the reports and the page write them.
public enum ClockText {
  /// `HH:MM` of a minute of the day.
  public static func minutes(_ minuteOfDay: Int) -> String {
    "\(CalendarDate.padded(minuteOfDay / 60, 2)):\(CalendarDate.padded(minuteOfDay % 60, 2))"
  }

  /// `HH:MM:SS` of a second of the day.
  public static func seconds(_ secondOfDay: Int) -> String {
    "\(minutes(secondOfDay / 60)):\(CalendarDate.padded(secondOfDay % 60, 2))"
  }

  /// The ISO-8601 UTC timestamp `YYYY-MM-DDTHH:MM:SSZ` of a second of day `day` (day 0 is `start`).
  public static func utc(_ start: CalendarDate, day: Int, secondOfDay: Int) -> String {
    "\(start.adding(days: day).iso)T\(seconds(secondOfDay))Z"
  }
}
