/// A phone's requests in its current UTC hour and day, each direction, as it records them: when one changes
/// (or the phone ends, or its requests are added) the square's growth since it was last added goes into
/// ``PhoneHours``, so adding at any time gives the same sums.
struct PhoneHourTally: Sendable {
  /// One hour's or day's count of the phone's, and the square of it already added.
  struct Running: Sendable {
    var index = Int.min
    var count: UInt64 = 0
    var added: UInt64 = 0

    /// Adds the square's growth to `direction`'s sums over `span`.
    mutating func add(into hours: inout PhoneHours, direction: ServerDirection, span: PhoneHours.Span) {
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
  /// The sources (a bit each, by raw value) whose requests a sample's figures count
  /// (``ServerSeconds/sampledSources``: what the servers receive, and what they send but the fleet-wide
  /// broadcasts); and of those, what they send.
  private let sampled: UInt64
  private let sent: UInt64

  init() {
    precondition(ServerSource.count <= 64, "a source a bit")
    func bits(_ sources: [ServerSource]) -> UInt64 { sources.reduce(0) { $0 | 1 << UInt64($1.rawValue) } }
    sent = bits(ServerSeconds.sampledSources[ServerDirection.sent.rawValue])
    sampled = sent | bits(ServerSeconds.sampledSources[ServerDirection.received.rawValue])
  }

  /// One more request of `source` (a raw value) in UTC second `second` (of the run's; negative before).
  @inline(__always)
  mutating func count(source: Int, second: Int64, into hours: inout PhoneHours) {
    let bit = UInt64(1) << UInt64(source)
    guard sampled & bit != 0 else { return }
    let hour = second >= 0 ? Int(second / 3_600) : -1
    if sent & bit != 0 {
      PhoneHourTally.count(&sentPair, hour: hour, direction: .sent, into: &hours)
    } else {
      PhoneHourTally.count(&received, hour: hour, direction: .received, into: &hours)
    }
  }

  @inline(__always)
  private static func count(_ pair: inout Pair, hour: Int, direction: ServerDirection, into hours: inout PhoneHours) {
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
  private static func move(
    _ pair: inout Pair, to hour: Int, direction: ServerDirection, into hours: inout PhoneHours
  ) {
    pair.hour.add(into: &hours, direction: direction, span: .hour)
    pair.hour = Running(index: hour, count: 1, added: 0)
    let day = hour >= 0 ? hour / 24 : -1
    if pair.day.index != day {
      pair.day.add(into: &hours, direction: direction, span: .day)
      pair.day = Running(index: day, count: 0, added: 0)
    }
    pair.day.count += 1
  }

  /// Adds what the current hours' and days' squares grew by.
  mutating func add(into hours: inout PhoneHours) {
    received.hour.add(into: &hours, direction: .received, span: .hour)
    received.day.add(into: &hours, direction: .received, span: .day)
    sentPair.hour.add(into: &hours, direction: .sent, span: .hour)
    sentPair.day.add(into: &hours, direction: .sent, span: .day)
  }

  /// A new phone: its hours are its own.
  mutating func startPhone(into hours: inout PhoneHours) {
    add(into: &hours)
    received = Pair()
    sentPair = Pair()
  }
}
