import SimulationEngine

/// How unevenly the phones share each UTC hour's requests, for what the servers receive and what they send:
/// per hour, the sum over phones of the square of each phone's requests in it.
///
/// A sample's count in a stretch of seconds is off, from phone to phone, by as much as its phones' counts
/// vary: `sum n^2 - (sum n)^2 / N` over its `N` phones. Where a phone's requests come close together (an
/// order's updates over half an hour, each a WidgetKit push and a Live Activity push), that is far more than
/// the dispersion of successive seconds shows. Recorded by each phone as its hours close
/// (``ServerLoad/append(_:)``); exact integers, so any number of devices add up the same way in any order.
struct PhoneHours: Sendable, Equatable {
  /// Hours covered: the run's UTC days.
  private(set) var hourCount: Int
  /// By direction (``ServerDirection``) and hour: `direction * hourCount + hour`.
  private var squares: [UInt64]

  init(hourCount: Int = 0) {
    self.hourCount = hourCount
    squares = Array(repeating: 0, count: ServerDirection.allCases.count * hourCount)
  }

  /// The sum of squares of phones' requests going `direction` in `hour`.
  subscript(direction: ServerDirection, hour: Int) -> UInt64 { squares[direction.rawValue * hourCount + hour] }

  /// Adds `amount` to `direction`'s sum of squares in `hour` (ignored outside the run's hours).
  mutating func add(_ amount: UInt64, direction: Int, hour: Int) {
    guard hour >= 0, hour < hourCount else { return }
    squares[direction * hourCount + hour] &+= amount
  }

  mutating func merge(_ other: PhoneHours) {
    precondition(hourCount == other.hourCount, "merged phone hours of different runs")
    for index in squares.indices { squares[index] &+= other.squares[index] }
  }

  mutating func reset() {
    for index in squares.indices { squares[index] = 0 }
  }

  mutating func dropFirst(hours: Int) {
    let kept = hourCount - hours
    squares = ServerDirection.allCases.flatMap { direction in
      squares[(direction.rawValue * hourCount + hours)..<((direction.rawValue + 1) * hourCount)]
    }
    hourCount = kept
  }
}

extension PhoneHours: BinaryCodable {
  func encode(to writer: inout BinaryWriter) {
    hourCount.encode(to: &writer)
    squares.encode(to: &writer)
  }

  init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    hourCount = try Int(from: &reader)
    squares = try [UInt64](from: &reader)
    guard hourCount >= 0, squares.count == ServerDirection.allCases.count * hourCount else {
      throw reader.error("phone hours of the wrong size")
    }
  }
}

/// A phone's requests in its current UTC hour, each direction, as it records them: when the hour changes (or
/// the phone ends, or its requests are added) the square's growth since it was last added goes into
/// ``PhoneHours``, so adding at any time gives the same sums.
struct PhoneHourTally: Sendable {
  private var hour = [Int](repeating: Int.min, count: ServerDirection.allCases.count)
  private var count = [UInt64](repeating: 0, count: ServerDirection.allCases.count)
  private var added = [UInt64](repeating: 0, count: ServerDirection.allCases.count)

  /// One more request going `direction` in `hour`.
  @inline(__always)
  mutating func count(direction: Int, hour: Int, into hours: inout PhoneHours) {
    if self.hour[direction] != hour {
      add(direction, into: &hours)
      self.hour[direction] = hour
      count[direction] = 0
      added[direction] = 0
    }
    count[direction] += 1
  }

  /// Adds what the current hours' squares grew by.
  mutating func add(into hours: inout PhoneHours) {
    for direction in hour.indices { add(direction, into: &hours) }
  }

  private mutating func add(_ direction: Int, into hours: inout PhoneHours) {
    let square = count[direction] * count[direction]
    guard square != added[direction] else { return }
    hours.add(square - added[direction], direction: direction, hour: hour[direction])
    added[direction] = square
  }

  /// A new phone: its hours are its own.
  mutating func startPhone(into hours: inout PhoneHours) {
    add(into: &hours)
    for direction in hour.indices {
      hour[direction] = Int.min
      count[direction] = 0
      added[direction] = 0
    }
  }
}
