import Fleets
import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// A replication that is only summarised and summed keeps its server requests as requests
/// (`ServerLoad.keepsRequests`): its minute totals, and every minute of the sum it is absorbed or merged
/// into, are what they are when its requests are added to its own minutes first.
@Suite("Server requests kept by a summed replication")
struct KeptRequestsTests {
  /// `requests` random requests (``ServerLoadBusyMinutesTests/record(_:into:seed:)``), kept.
  static func kept(_ requests: Int, seed: UInt64) -> ServerLoad {
    var load = ServerLoad(days: 2)
    load.keepsRequests = true
    // Two outside the minutes, which neither way counts: before the first (midnight on a device 16 h ahead
    // of UTC) and after the last.
    load.recordFetch(.widgetFetch, bytes: 100, at: .zero, offset: .hours(16))
    load.recordPush(.widgetPush, delivered: true, at: SimTime(microseconds: 3 * 86_400_000_000), offset: .zero)
    ServerLoadBusyMinutesTests.record(requests, into: &load, seed: seed)
    return load
  }

  /// The same load with every request added to its minutes.
  static func applied(_ load: ServerLoad) -> ServerLoad {
    var applied = load
    applied.applyKept()
    return applied
  }

  // 30,000: several requests of a source in most minutes; 70,000: past the limit of requests kept, where the
  // load stops keeping them and adds them all to its minutes.
  @Test(
    "a kept load's minute totals equal those of its requests added to its minutes",
    arguments: [0, 1, 300, 30_000, 70_000])
  func minuteTotals(requests: Int) {
    let kept = KeptRequestsTests.kept(requests, seed: 21)
    let applied = KeptRequestsTests.applied(kept)
    #expect(!applied.holdsKeptRequests && applied.pending.isEmpty)
    let overLimit = requests + 2 >= ServerLoad.pendingLimit
    #expect(overLimit ? !kept.busySlots.isEmpty : kept.busySlots.isEmpty)
    #expect(kept.holdsKeptRequests == !overLimit, "kept, unless past the limit")
    #expect(kept.keepsRequests == !overLimit)
    #expect(kept.minuteTotals() == applied.minuteTotals())
    #expect(applied.minuteTotals().busySlots.count == applied.busySlots.count)
    #expect(requests > 0 || applied.busySlots.isEmpty, "the two outside the minutes count nowhere")
  }

  @Test(
    "absorbing or merging a kept load adds every minute its requests would, into a sparse or a dense sum",
    arguments: [(300, 200), (300, 30_000), (30_000, 200), (70_000, 200)])
  func sums(requests: Int, inSum: Int) {
    let sum = ServerLoadBusyMinutesTests.load(inSum, seed: 22)
    let kept = KeptRequestsTests.kept(requests, seed: 23)
    var reference = sum
    reference.merge(KeptRequestsTests.applied(kept))
    var merged = sum
    merged.merge(kept)
    #expect(ServerLoadBusyMinutesTests.Minutes(merged) == ServerLoadBusyMinutesTests.Minutes(reference))
    #expect(merged.busySlots == reference.busySlots)
    var absorbed = sum
    var emptied = kept
    absorbed.absorb(&emptied)
    #expect(ServerLoadBusyMinutesTests.Minutes(absorbed) == ServerLoadBusyMinutesTests.Minutes(reference))
    #expect(absorbed.busySlots == reference.busySlots)
    #expect(emptied.pending.isEmpty && emptied.busySlots.isEmpty, "an absorbed load keeps nothing")
  }

  @Test("a sum that began as a kept replication adds its own requests before it takes another's")
  func sumThatWasKept() {
    var sum = KeptRequestsTests.kept(250, seed: 24)
    var other = KeptRequestsTests.kept(250, seed: 25)
    var reference = KeptRequestsTests.applied(sum)
    reference.merge(KeptRequestsTests.applied(other))
    sum.absorb(&other)
    #expect(sum.pending.isEmpty && !sum.keepsRequests)
    #expect(ServerLoadBusyMinutesTests.Minutes(sum) == ServerLoadBusyMinutesTests.Minutes(reference))
  }

  @Test("a summed-only phone keeps its requests, and its totals and sums are those of one that does not")
  func summedOnlyReplications() {
    let configuration = FleetTests.fleet(devices: 1, days: 2)
    var keptSum: ReplicationResult?
    var appliedSum: ReplicationResult?
    for replication in 0..<3 {
      guard
        var kept = FleetRunner.run(configuration, replication: replication, jobs: 1, stop: nil, summedOnly: true)?
          .result,
        var applied = FleetRunner.run(configuration, replication: replication, jobs: 1, stop: nil)?.result
      else {
        Issue.record("replication \(replication) did not run")
        return
      }
      #expect(kept.serverLoad.holdsKeptRequests, "a phone that asked for something kept it")
      #expect(!applied.serverLoad.holdsKeptRequests)
      #expect(kept.serverLoad.minuteTotals() == applied.serverLoad.minuteTotals())
      guard keptSum != nil, appliedSum != nil else {
        kept.applyKeptRequests()
        keptSum = kept
        appliedSum = applied
        continue
      }
      keptSum!.absorb(&kept)
      appliedSum!.absorb(&applied)
      #expect(ResultReuseTests.bytes(keptSum) == ResultReuseTests.bytes(appliedSum), "sum after \(replication)")
    }
  }
}
