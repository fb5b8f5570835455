import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// A load's busy minutes: a phone's replication is merged, emptied and summed over the minutes it asked in,
/// and every figure comes out as it does from the whole per-minute arrays.
@Suite("Server load by busy minute")
struct ServerLoadBusyMinutesTests {
  /// `requests` random requests over two days from devices in random time zones, every source, some
  /// deliveries.
  static func load(_ requests: Int, seed: UInt64) -> ServerLoad {
    var load = ServerLoad(days: 2)
    record(requests, into: &load, seed: seed)
    return load
  }

  static func record(_ requests: Int, into load: inout ServerLoad, seed: UInt64) {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed, replication: 0, entity: 0, stream: 1))
    for _ in 0..<requests {
      let source = ServerSource.allCases[Int(stream.uniform() * Double(ServerSource.count))]
      let time = SimTime(microseconds: Int64(stream.uniform() * 2 * 86_400e6))
      let offset = SimDuration.hours(Int64(stream.uniform() * 20) - 10)
      if source.isPush {
        load.recordPush(source, delivered: stream.bernoulli(0.3), at: time, offset: offset)
      } else {
        load.recordFetch(source, bytes: stream.uniform() * 5_000, at: time, offset: offset)
      }
    }
    load.applyPendingUnlessKept()  // all of them, unless the load keeps them (see KeptRequestsTests)
  }

  /// Every count of every minute: requests by source, bytes, deliveries.
  struct Minutes: Equatable {
    var requests: [[Int64]]
    var bytes: [Int128]
    var delivered: [Int64]

    init(_ load: ServerLoad) {
      requests = (0..<load.minuteCount).map { slot in
        ServerSource.allCases.map { load.requests(slot: slot, source: $0) }
      }
      bytes = load.bytes
      delivered = load.pushesDelivered
    }

    static func + (lhs: Minutes, rhs: Minutes) -> Minutes {
      var sum = lhs
      sum.requests = zip(lhs.requests, rhs.requests).map { zip($0, $1).map(+) }
      sum.bytes = zip(lhs.bytes, rhs.bytes).map(+)
      sum.delivered = zip(lhs.delivered, rhs.delivered).map(+)
      return sum
    }

    var busy: [Int] {
      requests.indices.filter { requests[$0].contains { $0 != 0 } || bytes[$0] != 0 || delivered[$0] != 0 }
    }
  }

  @Test("the busy minutes are exactly the minutes holding something, after records, merges and a drop")
  func busyMinutesAreTheNonZeroOnes() throws {
    var sparse = ServerLoadBusyMinutesTests.load(300, seed: 1)
    #expect(Array(sparse.busySlots) == Minutes(sparse).busy)
    #expect(sparse.busySlots.count * 4 < sparse.minuteCount, "a phone's load takes the minute-by-minute merge")
    let dense = ServerLoadBusyMinutesTests.load(30_000, seed: 2)
    #expect(dense.busySlots.count * 4 >= dense.minuteCount, "a fleet's load takes the whole-array merge")
    sparse.merge(dense)
    #expect(Array(sparse.busySlots) == Minutes(sparse).busy)
    sparse.dropFirst(days: 1, of: 2)
    #expect(Array(sparse.busySlots) == Minutes(sparse).busy)
    var writer = BinaryWriter(magic: [])
    sparse.encode(to: &writer)
    var reader = try BinaryReader(checksummed: writer.checksummedBytes, magic: [], kind: "load")
    let decoded = try ServerLoad(from: &reader)
    #expect(decoded.busySlots == sparse.busySlots)
  }

  @Test("merging a sparse load into a dense one and a dense into a sparse gives the sums of every minute")
  func mergesAddEveryMinute() {
    let sparse = ServerLoadBusyMinutesTests.load(300, seed: 3)
    let other = ServerLoadBusyMinutesTests.load(200, seed: 4)
    let dense = ServerLoadBusyMinutesTests.load(30_000, seed: 5)
    var sparseSum = sparse
    sparseSum.merge(other)  // minute by minute
    let sparseSumMatches = Minutes(sparseSum) == Minutes(sparse) + Minutes(other)
    #expect(sparseSumMatches)
    var denseSum = dense
    denseSum.merge(sparse)  // minute by minute into a dense load
    let denseSumMatches = Minutes(denseSum) == Minutes(dense) + Minutes(sparse)
    #expect(denseSumMatches)
    var intoSparse = sparse
    intoSparse.merge(dense)  // whole arrays
    let intoSparseMatches = Minutes(intoSparse) == Minutes(denseSum)
    #expect(intoSparseMatches)
  }

  @Test(
    "a load reset for reuse empties its old minutes as the next run reaches them, and only those",
    arguments: [(30_000, 500), (200, 0)])
  func reuseEmptiesOldMinutes(_ requests: Int, _ more: Int) {
    // Mostly busy (emptied in whole spans) or a phone's few busy minutes (emptied one by one).
    var reused = ServerLoadBusyMinutesTests.load(requests, seed: 6)
    reused.merge(ServerLoadBusyMinutesTests.load(more, seed: 7))
    reused.resetAllButDays()
    ServerLoadBusyMinutesTests.record(400, into: &reused, seed: 8)
    reused.clear(days: 0..<2, of: 2)  // opens the minutes past the last request
    let fresh = ServerLoadBusyMinutesTests.load(400, seed: 8)
    let reusedMatches = Minutes(reused) == Minutes(fresh)
    #expect(reusedMatches)
    #expect(reused.busySlots == fresh.busySlots)
  }

  @Test("the figures read from the busy minutes equal those of the whole per-minute series, to the bit")
  func figuresMatchTheSeries() {
    // The last: a load doubled 33 times, whose counts pass a cell's 32 bits (kept in the side table).
    for (requests, seed, doublings) in [(0, UInt64(9), 0), (300, 10, 0), (30_000, 11, 0), (200, 12, 33)] {
      var load = ServerLoadBusyMinutesTests.load(requests, seed: seed)
      for _ in 0..<doublings { load.merge(load) }
      #expect(doublings == 0 || Minutes(load).requests.joined().contains { $0 > Int64(UInt32.max) })
      let totals = load.minuteTotals()
      let scale = 3.7
      // The reference series from every minute's counts (not from the busy minutes the totals read).
      let minutes = Minutes(load)
      let fetches = minutes.requests.map {
        zip(ServerSource.allCases, $0).filter { $0.0.isFetch }.reduce(0) { $0 + $1.1 }
      }
      let broadcasts = minutes.requests.map { $0[ServerSource.broadcast.rawValue] }
      let pushesSent = minutes.requests.indices.map { slot in
        let devicePushes = zip(ServerSource.allCases, minutes.requests[slot])
          .filter { $0.0.isPush && !$0.0.isFleetWide }.reduce(0) { $0 + $1.1 }
        return Double(broadcasts[slot]) + Double(devicePushes) * scale
      }
      #expect(totals.fetches == fetches && totals.broadcasts == broadcasts)
      #expect(totals.pushesSent(scale: scale) == pushesSent)
      #expect(totals.peakFetches == fetches.max() ?? 0)
      #expect(totals.peakPushesSent(scale: scale) == pushesSent.max() ?? 0)
      #expect(totals.totalPushesSent(scale: scale).bitPattern == pushesSent.reduce(0, +).bitPattern)
      #expect(totals.bytes == load.bytes.reduce(0, +))
      #expect(totals.pushesDelivered == load.pushesDelivered.reduce(0, +))
      let days = -ServerLoad.firstMinute..<(-ServerLoad.firstMinute + 2 * 1_440)
      #expect(totals.broadcasts(slots: days) == broadcasts[days].reduce(0, +))
      #expect(totals.broadcasts(slots: days) == load.total(.broadcast, slots: days))
      #expect(totals.busySlots == Array(load.busySlots))
      let bySource = ServerSource.allCases.map { source in minutes.requests.reduce(0) { $0 + $1[source.rawValue] } }
      #expect(totals.sourceTotals == bySource)
    }
  }

}
