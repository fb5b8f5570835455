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
  /// One hour's or day's count of the phone's, and the square of it already added.
  struct Running: Sendable {
    var index = Int.min
    var count: UInt64 = 0
    var added: UInt64 = 0

    /// Adds the square's growth to `span`'s sums (0 hours, 1 days) of `direction`.
    mutating func add(into hours: inout PhoneHours, direction: Int, span: Int) {
      let square = count * count
      guard square != added else { return }
      hours.add(square - added, direction: direction, span: span, index: index)
      added = square
    }
  }

  /// A direction's hour and day.
  struct Pair: Sendable {
    var hour = Running()
    var day = Running()
  }

  private var received = Pair()
  private var sentPair = Pair()
  /// The sources (a bit each, by raw value) whose requests a sample's figures count: what the servers
  /// receive, and what they send but the fleet-wide broadcasts; and of those, what they send.
  private let sampled: UInt64
  private let sent: UInt64

  init() {
    precondition(ServerSource.count <= 64, "a source a bit")
    var (sampled, sent) = (UInt64(0), UInt64(0))
    for source in ServerSource.allCases where !source.isFleetWide {
      sampled |= 1 << UInt64(source.rawValue)
      if ServerDirection.sent.counts(source) { sent |= 1 << UInt64(source.rawValue) }
    }
    (self.sampled, self.sent) = (sampled, sent)
  }

  /// One more request of `source` (a raw value) in UTC second `second` (of the run's; negative before).
  @inline(__always)
  mutating func count(source: Int, second: Int64, into hours: inout PhoneHours) {
    let bit = UInt64(1) << UInt64(source)
    guard sampled & bit != 0 else { return }
    let hour = second >= 0 ? Int(second / 3_600) : -1
    if sent & bit != 0 {
      PhoneHourTally.count(&sentPair, hour: hour, direction: ServerDirection.sent.rawValue, into: &hours)
    } else {
      PhoneHourTally.count(&received, hour: hour, direction: ServerDirection.received.rawValue, into: &hours)
    }
  }

  @inline(__always)
  private static func count(_ pair: inout Pair, hour: Int, direction: Int, into hours: inout PhoneHours) {
    // The same hour is the same day.
    if pair.hour.index == hour {
      pair.hour.count += 1
      pair.day.count += 1
    } else {
      move(&pair, to: hour, direction: direction, into: &hours)
    }
  }

  /// The phone's first request of `direction` in `hour`: the hour (and the day, if it changed) closed.
  @inline(never)
  private static func move(_ pair: inout Pair, to hour: Int, direction: Int, into hours: inout PhoneHours) {
    pair.hour.add(into: &hours, direction: direction, span: 0)
    pair.hour = Running(index: hour, count: 1, added: 0)
    let day = hour >= 0 ? hour / 24 : -1
    if pair.day.index != day {
      pair.day.add(into: &hours, direction: direction, span: 1)
      pair.day = Running(index: day, count: 0, added: 0)
    }
    pair.day.count += 1
  }

  /// Adds what the current hours' and days' squares grew by.
  mutating func add(into hours: inout PhoneHours) {
    let (inbound, outbound) = (ServerDirection.received.rawValue, ServerDirection.sent.rawValue)
    received.hour.add(into: &hours, direction: inbound, span: 0)
    received.day.add(into: &hours, direction: inbound, span: 1)
    sentPair.hour.add(into: &hours, direction: outbound, span: 0)
    sentPair.day.add(into: &hours, direction: outbound, span: 1)
  }

  /// A new phone: its hours are its own.
  mutating func startPhone(into hours: inout PhoneHours) {
    add(into: &hours)
    received = Pair()
    sentPair = Pair()
  }
}
