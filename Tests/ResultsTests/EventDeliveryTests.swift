import SimulationEngine
import Testing

@testable import Results

@Suite("A fleet-wide event's delivery times")
struct EventDeliveryTests {
  @Test("give the median and the shares within 1, 10 and 60 minutes, not only a mean sleeping phones dominate")
  func medianAndShares() throws {
    var delivery = EventDelivery()
    // Three phones awake (30 s, 5 min, 50 min), one asleep until morning (8 h): the mean is over 2 hours.
    for seconds: Int64 in [30, 300, 3_000, 28_800] { delivery.delivered(after: seconds * 1_000_000) }
    #expect(delivery.meanDeliverySeconds > 7_000)
    #expect(abs(delivery.medianDeliverySeconds - 300) <= 300 * 0.005)
    #expect(delivery.deliveredShare(withinMinutes: 1) == 0.25)
    #expect(delivery.deliveredShare(withinMinutes: 10) == 0.5)
    #expect(delivery.deliveredShare(withinMinutes: 60) == 0.75)
    // Exactly a minute counts as within it.
    var edge = EventDelivery()
    edge.delivered(after: 60_000_000)
    #expect(edge.deliveredShare(withinMinutes: 1) == 1)
    // Merged from devices in any order, and through a shard file, the same figures.
    var other = EventDelivery()
    other.delivered(after: 90_000_000)
    var merged = delivery
    merged.merge(other)
    #expect(merged.deliveredShare(withinMinutes: 10) == 0.6)
    var writer = BinaryWriter()
    merged.encode(to: &writer)
    var reader = BinaryReader(writer.bytes)
    let read = try EventDelivery(from: &reader)
    #expect(read.deliveredShare(withinMinutes: 10) == 0.6 && read.medianDeliverySeconds == merged.medianDeliverySeconds)
    #expect(EventDelivery().medianDeliverySeconds.isNaN && EventDelivery().deliveredShare(withinMinutes: 60).isNaN)
  }
}
