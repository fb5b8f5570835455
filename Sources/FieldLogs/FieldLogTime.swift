import WidgetModel

/// The field log's times: ISO-8601 with a UTC offset, `2026-01-05T08:30:12.345+01:00` (seconds and their
/// fraction optional on reading, `Z` for UTC). A time is held as microseconds since 1970-01-01 UTC plus the
/// offset the phone's clock showed, in seconds.
public struct FieldLogTime: Sendable, Equatable, Comparable {
  /// Microseconds since 1970-01-01T00:00:00Z.
  public let utcMicroseconds: Int64
  /// The phone's local clock ahead of UTC.
  public let offsetSeconds: Int

  public init(utcMicroseconds: Int64, offsetSeconds: Int) {
    self.utcMicroseconds = utcMicroseconds
    self.offsetSeconds = offsetSeconds
  }

  public static func < (left: FieldLogTime, right: FieldLogTime) -> Bool {
    left.utcMicroseconds < right.utcMicroseconds
  }

  /// Microseconds since 1970-01-01T00:00 on the phone's local clock.
  public var localMicroseconds: Int64 { utcMicroseconds + Int64(offsetSeconds) * 1_000_000 }

  /// Seconds since local midnight.
  public var localSecondOfDay: Double {
    let day: Int64 = 86_400_000_000
    return Double(((localMicroseconds % day) + day) % day) / 1_000_000
  }

  /// The local calendar day, as days since 1970-01-01.
  public var localDay: Int {
    let day: Int64 = 86_400_000_000
    let micros = localMicroseconds
    return Int(micros >= 0 ? micros / day : (micros - day + 1) / day)
  }

  /// The same time to the whole millisecond below (what ``text`` writes).
  public var truncatedToMilliseconds: FieldLogTime {
    let local = localMicroseconds
    let truncated = local - ((local % 1_000) + 1_000) % 1_000
    return FieldLogTime(utcMicroseconds: truncated - Int64(offsetSeconds) * 1_000_000, offsetSeconds: offsetSeconds)
  }

  /// The text, to the millisecond, with the offset to the minute (`+HH:MM`).
  public var text: String {
    let local = localMicroseconds
    let day = Int64(localDay)
    let micros = local - day * 86_400_000_000
    let date = CalendarDate(daysSince1970: Int(day)).iso
    let millis = micros / 1_000
    let (hour, minute, second, milli) = (millis / 3_600_000, millis / 60_000 % 60, millis / 1_000 % 60, millis % 1_000)
    let sign = offsetSeconds < 0 ? "-" : "+"
    let offsetMinutes = abs(offsetSeconds) / 60
    return "\(date)T\(Self.pad(hour)):\(Self.pad(minute)):\(Self.pad(second)).\(Self.pad(milli, 3))"
      + "\(sign)\(Self.pad(Int64(offsetMinutes / 60))):\(Self.pad(Int64(offsetMinutes % 60)))"
  }

  private static func pad(_ value: Int64, _ width: Int = 2) -> String {
    let digits = String(value)
    return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
  }

  /// Reads `YYYY-MM-DDTHH:MM[:SS[.fraction]](Z|±HH:MM)`; nil for anything else.
  public init?(text: String) {
    var text = text
    let parsed = text.withUTF8 { bytes -> (Int64, Int)? in
      var scanner = TimeScanner(bytes: bytes)
      return scanner.time()
    }
    guard let (utc, offset) = parsed else { return nil }
    self.init(utcMicroseconds: utc, offsetSeconds: offset)
  }

  /// The `±HH:MM` that ends `text` when it is past 14:00 (no clock is that far from UTC), else nil:
  /// what a time refused for its offset alone is told.
  static func offsetOutOfRange(_ text: String) -> String? {
    let tail = Array(text.utf8.suffix(6))
    guard tail.count == 6, tail[0] == 0x2B || tail[0] == 0x2D, tail[3] == 0x3A,
      let hours = Int(String(decoding: tail[1...2], as: UTF8.self)),
      let minutes = Int(String(decoding: tail[4...5], as: UTF8.self)), minutes < 60, hours * 60 + minutes > 840
    else { return nil }
    return String(decoding: tail, as: UTF8.self)
  }
}

/// The reader behind ``FieldLogTime/init(text:)``: a position in the text's bytes.
private struct TimeScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  /// `count` digits as a number, or nil.
  mutating func number(_ count: Int) -> Int? {
    guard position + count <= bytes.count else { return nil }
    var value = 0
    for index in position..<position + count {
      let byte = bytes[index]
      guard (0x30...0x39).contains(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    position += count
    return value
  }

  mutating func take(_ byte: UInt8) -> Bool {
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  /// (UTC microseconds since 1970, offset seconds), or nil.
  mutating func time() -> (Int64, Int)? {
    guard let year = number(4), take(0x2D), let month = number(2), take(0x2D), let day = number(2),
      take(0x54) || take(0x74), let hour = number(2), hour < 24, take(0x3A), let minute = number(2), minute < 60,
      let date = CalendarDate(year: year, month: month, day: day)
    else { return nil }
    var micros = Int64(hour * 3_600 + minute * 60) * 1_000_000
    if take(0x3A) {
      guard let second = number(2), second < 61 else { return nil }
      micros += Int64(second) * 1_000_000
      if take(0x2E) {
        var scale: Int64 = 100_000
        var digits = 0
        while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
          micros += Int64(bytes[position] - 0x30) * scale
          scale /= 10
          digits += 1
          position += 1
        }
        guard digits > 0 else { return nil }
      }
    }
    var offset = 0
    if !(take(0x5A) || take(0x7A)) {
      let sign: Int
      if take(0x2B) {
        sign = 1
      } else if take(0x2D) {
        sign = -1
      } else {
        return nil
      }
      // No clock is further than 14 hours from UTC (Kiribati's +14:00).
      guard let offsetHour = number(2), take(0x3A), let offsetMinute = number(2), offsetMinute < 60,
        offsetHour * 60 + offsetMinute <= 840
      else { return nil }
      offset = sign * (offsetHour * 3_600 + offsetMinute * 60)
    }
    guard position == bytes.count else { return nil }
    let local = Int64(date.daysSince1970) * 86_400_000_000 + micros
    return (local - Int64(offset) * 1_000_000, offset)
  }
}
