import WidgetModel

/// Times of day and UTC timestamps as the reports and the page write them.
public enum ClockText {
  /// `HH:MM` of a minute of the day.
  public static func minutes(_ minuteOfDay: Int) -> String {
    text { $0.minutes(minuteOfDay) }
  }

  /// `HH:MM:SS` of a second of the day.
  public static func seconds(_ secondOfDay: Int) -> String {
    text { $0.seconds(secondOfDay) }
  }

  /// The ISO-8601 UTC timestamp `YYYY-MM-DDTHH:MM:SSZ` of a second of day `day` (day 0 is `start`).
  public static func utc(_ start: CalendarDate, day: Int, secondOfDay: Int) -> String {
    text { $0.utc(start, day: day, secondOfDay: secondOfDay) }
  }

  /// The text `write` puts in a ``CSVBytes`` (which writes these forms, in reports a cell at a time).
  private static func text(_ write: (inout CSVBytes) -> Void) -> String {
    var bytes = CSVBytes(capacity: 20)
    write(&bytes)
    return bytes.text
  }
}
