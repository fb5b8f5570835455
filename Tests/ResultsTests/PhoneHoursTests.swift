import SimulationEngine
import Testing

@testable import Results

/// Each phone's requests per hour, squared and summed, whenever its requests are added: the sums a sample's
/// rates are read against (how unevenly its phones share an hour).
@Suite("Phone hours")
struct PhoneHoursTests {
  /// Phones' request times (seconds of the day, in order) and directions, drawn with a fixed seed: some phones
  /// send a burst of pushes within minutes.
  static func phones(seed: UInt64) -> [[(second: Int64, push: Bool)]] {
    var generator = SplitMix64(state: seed)
    return (0..<40).map { phone in
      var times: [(Int64, Bool)] = []
      for _ in 0..<Int(generator.next() % 30) {
        times.append((Int64(generator.next() % 86_400), generator.next() % 3 == 0))
      }
      if phone % 5 == 0 {
        let start = Int64(generator.next() % 80_000)
        for step in 0..<8 { times.append((start + Int64(step) * 120, true)) }
      }
      return times.sorted { $0.0 < $1.0 }
    }
  }

  /// The sums written out: per direction and hour, each phone's count squared (and per day, at index 24).
  static func expected(_ phones: [[(second: Int64, push: Bool)]]) -> [[UInt64]] {
    var sums = Array(repeating: Array(repeating: UInt64(0), count: 25), count: 2)
    for phone in phones {
      var counts = Array(repeating: Array(repeating: UInt64(0), count: 25), count: 2)
      for request in phone {
        counts[request.push ? 1 : 0][Int(request.second / 3_600)] += 1
        counts[request.push ? 1 : 0][24] += 1
      }
      for direction in 0..<2 {
        for hour in 0..<25 { sums[direction][hour] += counts[direction][hour] * counts[direction][hour] }
      }
    }
    return sums
  }

  /// The phones recorded into one load, their requests added after each phone, or every `every` requests
  /// as well (a batch filling, a day closing).
  static func recorded(_ phones: [[(second: Int64, push: Bool)]], every: Int?) -> PhoneHours {
    var load = ServerLoad(days: 1, perSecond: true)
    var recorded = 0
    for phone in phones {
      load.startDevice()
      for request in phone {
        let time = SimTime(microseconds: request.second * 1_000_000 + 500_000)
        if request.push {
          load.recordPush(.widgetPush, delivered: false, at: time, offset: .zero)
          // A delivery is not a request.
          load.recordPush(.widgetPush, delivered: true, at: time, offset: .zero)
        } else {
          load.recordFetch(.widgetFetch, bytes: 100, at: time, offset: .zero)
        }
        recorded += 1
        if let every, recorded % every == 0 { load.applyPending() }
      }
      load.applyPending()
    }
    return load.seconds.phoneHours
  }

  @Test("the sums of squares are each phone's, however often its requests are added", arguments: [nil, 1, 7])
  func sumsOfSquares(_ every: Int?) {
    let phones = PhoneHoursTests.phones(seed: 11)
    let hours = PhoneHoursTests.recorded(phones, every: every)
    let expected = PhoneHoursTests.expected(phones)
    for direction in ServerDirection.allCases {
      for hour in 0..<24 {
        #expect(hours[direction, hour] == expected[direction.rawValue][hour], "\(direction) \(hour)")
      }
      #expect(hours[direction, day: 0] == expected[direction.rawValue][24], "\(direction) day")
    }
  }

  @Test("two days, phones on other clocks: the warm-up day cut leaves the second day's hours and day")
  func twoDaysCut() {
    var load = ServerLoad(days: 2, perSecond: true)
    var expected = Array(repeating: UInt64(0), count: 48)
    var expectedDays = Array(repeating: UInt64(0), count: 2)
    var generator = SplitMix64(state: 31)
    for phone in 0..<30 {
      load.startDevice()
      // Offsets from -14 h to +14 h: local times that cross UTC midnight.
      let offset = SimDuration.hours(Int64(phone % 29) - 14)
      var hours = Array(repeating: UInt64(0), count: 48)
      var local = Int64(generator.next() % 3_600)
      while local < 50 * 3_600 {
        load.recordFetch(.widgetFetch, bytes: 10, at: SimTime(microseconds: local * 1_000_000), offset: offset)
        let utc = local - offset.microseconds / 1_000_000
        if utc >= 0 && utc < 48 * 3_600 { hours[Int(utc / 3_600)] += 1 }
        local += Int64(generator.next() % 1_800) + 1
      }
      load.applyPending()
      for hour in 0..<48 { expected[hour] += hours[hour] * hours[hour] }
      for day in 0..<2 {
        let total = hours[(day * 24)..<((day + 1) * 24)].reduce(0, +)
        expectedDays[day] += total * total
      }
    }
    var hours = load.seconds.phoneHours
    #expect((0..<48).allSatisfy { hours[.received, $0] == expected[$0] })
    #expect(hours[.received, day: 0] == expectedDays[0] && hours[.received, day: 1] == expectedDays[1])
    hours.dropFirst(days: 1, of: 2)
    #expect(hours.hourCount == 24 && hours.dayCount == 1)
    #expect((0..<24).allSatisfy { hours[.received, $0] == expected[$0 + 24] })
    #expect(hours[.received, day: 0] == expectedDays[1])
    #expect((0..<24).allSatisfy { hours[.sent, $0] == 0 })
  }

  @Test("a damaged file's hour count is refused, not multiplied")
  func damagedCount() {
    var writer = BinaryWriter()
    (24 << 58).encode(to: &writer)
    [UInt64]().encode(to: &writer)
    [UInt64]().encode(to: &writer)
    var reader = BinaryReader(writer.bytes)
    #expect(throws: BinaryDecodingError.self) { try PhoneHours(from: &reader) }
  }

  @Test("merged, cut and written, the sums are the phones' they hold")
  func mergeCutAndWrite() throws {
    let first = PhoneHoursTests.phones(seed: 12)
    let second = PhoneHoursTests.phones(seed: 13)
    var merged = PhoneHoursTests.recorded(first, every: nil)
    merged.merge(PhoneHoursTests.recorded(second, every: nil))
    #expect(merged == PhoneHoursTests.recorded(first + second, every: nil))
    var writer = BinaryWriter()
    merged.encode(to: &writer)
    var reader = BinaryReader(writer.bytes)
    #expect(try PhoneHours(from: &reader) == merged)
    var cut = merged
    cut.dropFirst(days: 1, of: 1)
    #expect(cut.hourCount == 0 && cut.dayCount == 0)
  }
}

/// The largest single responses a sample keeps: exactly the largest, however they come.
@Suite("Largest single responses")
struct LargestResponsesTests {
  @Test("keeps the largest of many, largest first, and counts them all")
  func keepsTheLargest() {
    var generator = SplitMix64(state: 21)
    var responses = LargestResponses()
    var all: [Double] = []
    for _ in 0..<5_000 {
      let bytes = Double(generator.next() % 1_000_000)
      responses.add(bytes)
      all.append(bytes)
    }
    #expect(responses.count == 5_000)
    #expect(responses.largest == Array(all.sorted(by: >).prefix(LargestResponses.capacity)))
    var few = LargestResponses()
    for bytes in [3.0, 1, 2] { few.add(bytes) }
    #expect(few.largest == [3, 2, 1] && few.count == 3)
  }
}
