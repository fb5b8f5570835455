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
  /// By direction (``ServerDirection``) and hour: `direction * hourCount + hour`.
  private var squares: [UInt64]
  /// By direction and day: `direction * dayCount + day`.
  private var daySquares: [UInt64]

  init(hourCount: Int = 0) {
    self.hourCount = hourCount
    squares = Array(repeating: 0, count: ServerDirection.allCases.count * hourCount)
    daySquares = Array(repeating: 0, count: ServerDirection.allCases.count * (hourCount / 24))
  }

  var dayCount: Int { hourCount / 24 }

  /// The sum of squares of phones' requests going `direction` in `hour`.
  subscript(direction: ServerDirection, hour: Int) -> UInt64 { squares[direction.rawValue * hourCount + hour] }

  /// The sum of squares of phones' requests going `direction` in `day`.
  subscript(direction: ServerDirection, day day: Int) -> UInt64 { daySquares[direction.rawValue * dayCount + day] }

  /// Adds `amount` to `direction`'s sum of squares in `hour` (`span` 0) or in day `hour` (`span` 1); ignored
  /// outside the run.
  mutating func add(_ amount: UInt64, direction: Int, span: Int, index: Int) {
    let count = span == 0 ? hourCount : dayCount
    guard index >= 0, index < count else { return }
    if span == 0 {
      squares[direction * count + index] &+= amount
    } else {
      daySquares[direction * count + index] &+= amount
    }
  }

  mutating func merge(_ other: PhoneHours) {
    precondition(hourCount == other.hourCount, "merged phone hours of different runs")
    for index in squares.indices { squares[index] &+= other.squares[index] }
    for index in daySquares.indices { daySquares[index] &+= other.daySquares[index] }
  }

  mutating func reset() {
    for index in squares.indices { squares[index] = 0 }
    for index in daySquares.indices { daySquares[index] = 0 }
  }

  mutating func dropFirst(hours: Int) {
    let (oldHours, oldDays, days) = (hourCount, dayCount, hours / 24)
    squares = ServerDirection.allCases.flatMap { direction in
      squares[(direction.rawValue * oldHours + hours)..<((direction.rawValue + 1) * oldHours)]
    }
    daySquares = ServerDirection.allCases.flatMap { direction in
      daySquares[(direction.rawValue * oldDays + days)..<((direction.rawValue + 1) * oldDays)]
    }
    hourCount -= hours
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
    guard hourCount >= 0, hourCount % 24 == 0, squares.count == ServerDirection.allCases.count * hourCount,
      daySquares.count == ServerDirection.allCases.count * hourCount / 24
    else {
      throw reader.error("phone hours of the wrong size")
    }
  }
}

/// A phone's requests in its current UTC hour and day, each direction, as it records them: when one changes
/// (or the phone ends, or its requests are added) the square's growth since it was last added goes into
/// ``PhoneHours``, so adding at any time gives the same sums.
struct PhoneHourTally: Sendable {
  /// By direction and span (hour 0, day 1): `direction * 2 + span`.
  private var index = [Int](repeating: Int.min, count: 2 * ServerDirection.allCases.count)
  private var count = [UInt64](repeating: 0, count: 2 * ServerDirection.allCases.count)
  private var added = [UInt64](repeating: 0, count: 2 * ServerDirection.allCases.count)

  /// One more request going `direction` in `hour` (of the run's UTC hours; negative before them).
  @inline(__always)
  mutating func count(direction: Int, hour: Int, into hours: inout PhoneHours) {
    let day = hour >= 0 ? hour / 24 : -1
    count(direction * 2, hour, into: &hours)
    count(direction * 2 + 1, day, into: &hours)
  }

  @inline(__always)
  private mutating func count(_ slot: Int, _ at: Int, into hours: inout PhoneHours) {
    if index[slot] != at {
      add(slot, into: &hours)
      index[slot] = at
      count[slot] = 0
      added[slot] = 0
    }
    count[slot] += 1
  }

  /// Adds what the current hours' and days' squares grew by.
  mutating func add(into hours: inout PhoneHours) {
    for slot in index.indices { add(slot, into: &hours) }
  }

  private mutating func add(_ slot: Int, into hours: inout PhoneHours) {
    let square = count[slot] * count[slot]
    guard square != added[slot] else { return }
    hours.add(square - added[slot], direction: slot / 2, span: slot % 2, index: index[slot])
    added[slot] = square
  }

  /// A new phone: its hours are its own.
  mutating func startPhone(into hours: inout PhoneHours) {
    add(into: &hours)
    for slot in index.indices {
      index[slot] = Int.min
      count[slot] = 0
      added[slot] = 0
    }
  }
}
