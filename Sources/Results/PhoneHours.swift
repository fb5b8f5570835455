import ResultStorage
import SimulationEngine

/// How unevenly the phones share each UTC hour's and each UTC day's requests, for what the servers receive
/// and what they send: per hour and per day, the sum over phones of the square of each phone's requests in it.
///
/// A sample's count in a stretch of seconds is off, from phone to phone, by as much as its phones' counts
/// vary: `sum n^2 - (sum n)^2 / N` over its `N` phones. Where a phone's requests come close together (an
/// order's updates over half an hour, each a WidgetKit push and a Live Activity push), that is far more than
/// the dispersion of successive seconds shows; where phones differ all day (one has four widgets, another
/// one), a day's spread is more than its hours' added, and every hour of the sample is off the same way.
/// Recorded by each phone as its hours close (``PhoneHourTally``); exact integers, so any number of devices
/// add up the same way in any order.
struct PhoneHours: Sendable, Equatable {
  /// Hours covered: the run's UTC days.
  private(set) var hourCount: Int
  /// By hour and direction (``byDirection``): day-major, as the run's other series, so that the project's
  /// integer arrays add, empty and cut them.
  private var squares: [UInt64]
  /// By day and direction.
  private var daySquares: [UInt64]

  /// A row per hour (or day), a cell per ``ServerDirection``.
  static var byDirection: TableLayout { TableLayout(columns: ServerDirection.allCases.count) }

  init(hourCount: Int = 0) {
    self.hourCount = hourCount
    squares = .empty(PhoneHours.byDirection.start(ofRow: hourCount))
    daySquares = .empty(PhoneHours.byDirection.start(ofRow: hourCount / 24))
  }

  var dayCount: Int { hourCount / 24 }

  /// The sum of squares of phones' requests going `direction` in `hour`.
  subscript(direction: ServerDirection, hour: Int) -> UInt64 {
    squares[PhoneHours.byDirection.index(hour, direction.rawValue)]
  }

  /// The sum of squares of phones' requests going `direction` in `day`.
  subscript(direction: ServerDirection, day day: Int) -> UInt64 {
    daySquares[PhoneHours.byDirection.index(day, direction.rawValue)]
  }

  /// What a sum of squares is over: a phone's requests in an hour, or in a day.
  enum Span: Sendable {
    case hour
    case day
  }

  /// Adds `amount` to `direction`'s sum of squares in hour or day `index` of the run (ignored outside it).
  mutating func add(_ amount: UInt64, direction: ServerDirection, span: Span, index: Int) {
    switch span {
    case .hour:
      guard index >= 0, index < hourCount else { return }
      squares[PhoneHours.byDirection.index(index, direction.rawValue)] &+= amount
    case .day:
      guard index >= 0, index < dayCount else { return }
      daySquares[PhoneHours.byDirection.index(index, direction.rawValue)] &+= amount
    }
  }

  mutating func merge(_ other: PhoneHours) {
    precondition(hourCount == other.hourCount, "merged phone hours of different runs")
    squares.merge(other.squares)
    daySquares.merge(other.daySquares)
  }

  mutating func reset() {
    squares.reset()
    daySquares.reset()
  }

  /// Removes the first `days` of `total`.
  mutating func dropFirst(days: Int, of total: Int) {
    squares.dropFirst(days: days, of: total)
    daySquares.dropFirst(days: days, of: total)
    hourCount = Swift.max(0, hourCount - 24 * days)
  }
}

extension PhoneHours: BinaryCodable {
  func encode(to writer: inout BinaryWriter) {
    hourCount.encode(to: &writer)
    squares.encode(to: &writer)
    daySquares.encode(to: &writer)
  }

  init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    hourCount = try Int(from: &reader)
    squares = try [UInt64](from: &reader)
    daySquares = try [UInt64](from: &reader)
    // The count is checked against the arrays read before it is multiplied: a damaged file cannot overflow it.
    guard hourCount >= 0, hourCount <= squares.count, hourCount % 24 == 0,
      squares.count == PhoneHours.byDirection.start(ofRow: hourCount),
      daySquares.count == PhoneHours.byDirection.start(ofRow: hourCount / 24)
    else {
      throw reader.error("phone hours of the wrong size")
    }
  }
}
