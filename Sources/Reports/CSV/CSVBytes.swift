import WidgetModel

/// CSV text built as bytes, cell by cell: numbers written digit by digit, no string per cell.
///
/// A week's server_load.csv is 10,000 rows of 20 cells; made from interpolated strings joined per row it
/// took about 35,000 instructions a row. Numbers are byte for byte ``CSVFormat/number(_:decimals:)``'s text;
/// clock times and UTC stamps are written here only (``ClockText`` hands out this text as strings).
public struct CSVBytes {
  public private(set) var bytes: [UInt8] = []

  public init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// The text so far.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Text as it is (a cell already quoted where it needs to be, or a separator).
  public mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// UTF-8 as it is.
  public mutating func append(_ utf8: [UInt8]) {
    bytes.append(contentsOf: utf8)
  }

  /// UTF-8 as it is, from a buffer (a slice of a longer text: no array to retain).
  public mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: utf8)
  }

  public mutating func comma() {
    bytes.append(UInt8(ascii: ","))
  }

  public mutating func newline() {
    bytes.append(UInt8(ascii: "\n"))
  }

  /// ``CSVFormat/number(_:decimals:)``'s text.
  public mutating func number(_ value: Double, decimals: Int) {
    if value == 0 {  // most cells of a sparse report: "0", and the point and zeros of the decimals
      bytes.append(UInt8(ascii: "0"))
      guard decimals > 0 else { return }
      bytes.append(UInt8(ascii: "."))
      for _ in 0..<decimals { bytes.append(UInt8(ascii: "0")) }
      return
    }
    CSVFormat.withDigits(value, decimals: decimals) { bytes.append(contentsOf: $0) }
  }

  /// Swift's own text of `value` (`value.description`: the shortest that reads back to it), for a finite
  /// value. A whole value below 10^15 (a count, a total of microseconds) is written digit by digit with the
  /// `.0` Swift gives it (counts and totals in a replication's rows; `description` costs a few hundred
  /// instructions a value). Other values are written by the standard library into a small buffer on the stack
  /// (``ShortestText``, through ``writeShortest(_:to:)``), then appended: the same text as `description`, without
  /// a string made for each.
  public mutating func shortest(_ value: Double) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CSVBytes.shortestLimit) { text in
      let count = CSVBytes.writeShortest(value, to: text.baseAddress!)
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[0..<count]))
    }
  }

  /// The most bytes ``writeShortest(_:to:)`` writes (`-2.2250738585072014e-308` is 24).
  static let shortestLimit = 32

  /// Writes ``shortest(_:)``'s text of `value` at `destination`, which has room for ``shortestLimit`` bytes;
  /// returns the bytes written.
  static func writeShortest(_ value: Double, to destination: UnsafeMutablePointer<UInt8>) -> Int {
    // Finite only: `write(to:)` gives NaN its debug text (`nan(0x1)`), not `description`'s; callers skip values
    // not finite (the one caller writes them as an empty cell).
    precondition(value.isFinite, "the shortest text of a value not finite")
    if value.magnitude < 1e15, value == value.rounded(.towardZero), !(value == 0 && value.sign == .minus) {
      var count = 0
      if value < 0 {
        destination[0] = UInt8(ascii: "-")
        count = 1
      }
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
        let start = CSVFormat.writeDigits(UInt64(value.magnitude), into: digits, before: 20)
        for index in start..<20 {
          destination[count] = digits[index]
          count += 1
        }
      }
      destination[count] = UInt8(ascii: ".")
      destination[count + 1] = UInt8(ascii: "0")
      return count + 2
    }
    var text = ShortestText(destination: destination)
    value.write(to: &text)
    return text.count
  }

  /// A whole number, as `String(value)` writes it.
  public mutating func integer(_ value: Int) {
    padded(value, width: 1)
  }

  /// ``CalendarDate/padded(_:_:)``'s text: `value` with leading zeros to `width` digits.
  public mutating func padded(_ value: Int, width: Int) {
    guard value >= 0 else { return append(CalendarDate.padded(value, width)) }
    if value < 100 && width <= 2 {  // a clock's or a date's field: one or two digits, appended as they are
      if value >= 10 || width == 2 { bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)) }
      bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10))
      return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      let start = CSVFormat.writeDigits(UInt64(value), into: digits, before: 20)
      for _ in (20 - start)..<Swift.max(20 - start, width) { bytes.append(UInt8(ascii: "0")) }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
    }
  }

  /// `HH:MM` of a minute of the day.
  public mutating func minutes(_ minuteOfDay: Int) {
    padded(minuteOfDay / 60, width: 2)
    bytes.append(UInt8(ascii: ":"))
    padded(minuteOfDay % 60, width: 2)
  }

  /// `HH:MM:SS` of a second of the day.
  public mutating func seconds(_ secondOfDay: Int) {
    minutes(secondOfDay / 60)
    bytes.append(UInt8(ascii: ":"))
    padded(secondOfDay % 60, width: 2)
  }

  /// The ISO-8601 UTC timestamp `YYYY-MM-DDTHH:MM:SSZ` of a second of day `day` (day 0 is `start`).
  public mutating func utc(_ start: CalendarDate, day: Int, secondOfDay: Int) {
    let (year, month, dayOfMonth) = start.adding(days: day).components
    padded(year, width: 4)
    bytes.append(UInt8(ascii: "-"))
    padded(month, width: 2)
    bytes.append(UInt8(ascii: "-"))
    padded(dayOfMonth, width: 2)
    bytes.append(UInt8(ascii: "T"))
    seconds(secondOfDay)
    bytes.append(UInt8(ascii: "Z"))
  }
}

/// Where `Double.write(to:)` writes its text (the `description` text): memory with room for
/// ``CSVBytes/shortestLimit`` bytes. The standard library hands a number's ASCII to a stream through
/// `_writeASCII`, whose default makes a `String` of it (an allocation when it is longer than 15 bytes, most
/// shortest texts of fractions); taking the bytes as they are saves that. Were the library to stop calling it,
/// `write(_:)` gets the same text as a string.
struct ShortestText: TextOutputStream {
  let destination: UnsafeMutablePointer<UInt8>
  private(set) var count = 0

  init(destination: UnsafeMutablePointer<UInt8>) {
    self.destination = destination
  }

  mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { _writeASCII($0) }
  }

  mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    precondition(count + buffer.count <= CSVBytes.shortestLimit, "a number's text past \(CSVBytes.shortestLimit) bytes")
    guard let source = buffer.baseAddress else { return }
    (destination + count).initialize(from: source, count: buffer.count)
    count += buffer.count
  }
}
