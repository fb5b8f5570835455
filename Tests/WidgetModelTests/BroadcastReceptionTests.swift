import SimulationEngine
import Testing

@testable import WidgetModel

/// A device's broadcast reception driven directly, input by input, without a simulation: when it asks for
/// a channel's next update, and what it keeps for a switched-off phone.
@Suite("Broadcast reception")
struct BroadcastReceptionTests {
  /// Channel 0 sends at 10:00, 10:05 and 10:10 UTC; channel 1 at 11:00.
  static func reception(offset: SimDuration = .zero) -> BroadcastReception {
    let minute = SimDuration.minutes(1).microseconds
    let ten = SimDuration.hours(10).microseconds
    let schedule = BroadcastSchedule(
      utcMicros: [ten, ten + 5 * minute, ten + 10 * minute, SimDuration.hours(11).microseconds],
      ranges: [0..<3, 3..<4])
    return BroadcastReception(
      channels: [.init(id: "match", storage: .mostRecent), .init(id: "market")], schedule: schedule, offset: offset)
  }

  static func at(_ hours: Int64, _ minutes: Int64 = 0) -> SimTime { .zero + .hours(hours) + .minutes(minutes) }

  @Test("the first subscriber asks for the channel's next update; a second finds it pending")
  func subscribe() {
    var reception = Self.reception()
    #expect(reception.subscribe(0, now: Self.at(10, 2)) == Self.at(10, 5))
    #expect(reception.subscribe(0, now: Self.at(10, 3)) == nil)
    #expect(reception.subscribers == [2, 0])
  }

  @Test("an update that ran asks for the next while someone subscribes, and for none after the last")
  func fired() {
    var reception = Self.reception()
    #expect(reception.subscribe(0, now: Self.at(9)) == Self.at(10))
    #expect(reception.fired(0, now: Self.at(10)) == Self.at(10, 5))
    #expect(reception.fired(0, now: Self.at(10, 5)) == Self.at(10, 10))
    #expect(reception.fired(0, now: Self.at(10, 10)) == nil)
    // The channel sends no more: a new subscriber asks for nothing.
    #expect(reception.subscribe(0, now: Self.at(10, 11)) == nil)
  }

  @Test("with no one subscribed, an update that ran schedules none; a new subscriber starts again")
  func unsubscribed() {
    var reception = Self.reception()
    #expect(reception.subscribe(0, now: Self.at(9)) == Self.at(10))
    reception.missedAt[0] = Self.at(9, 30)
    reception.unsubscribe(0)
    #expect(reception.missedAt[0] == nil, "a stored message with no one to deliver it to is dropped")
    #expect(reception.fired(0, now: Self.at(10)) == nil)
    #expect(reception.subscribe(0, now: Self.at(10, 1)) == Self.at(10, 5))
  }

  @Test("the device's clock runs ahead of UTC: updates fall at the UTC time plus the offset")
  func offset() {
    var reception = Self.reception(offset: .hours(2))
    #expect(reception.subscribe(1, now: Self.at(12)) == Self.at(13))
    #expect(reception.fired(1, now: Self.at(13)) == nil)
  }
}
