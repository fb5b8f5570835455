import Fleets
import Testing

@testable import WidgetModel

@Suite("Fleet shards")
struct FleetShardTests {
  @Test("a shard's device count is exact for every N up to Int.max, without overflow")
  func deviceCount() {
    // 10 devices in 4 shards: 0, 4, 8 | 1, 5, 9 | 2, 6 | 3, 7.
    #expect((0..<4).map { FleetShard(index: $0, count: 4).devices(of: 10) } == [3, 3, 2, 2])
    #expect(FleetShard(index: 0, count: Int.max).devices(of: 10) == 1)
    #expect(FleetShard(index: Int.max - 1, count: Int.max).devices(of: 10) == 0)
    #expect(FleetShard(index: 3, count: 4).devices(of: Int.max) == Int.max / 4)
  }
}
