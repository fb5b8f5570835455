import SimulationEngine
import Testing

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
    ServerLoadBusyMinutesTests.record(requests, into: &load, seed: seed)
    return load
  }

  /// The same load with every request added to its minutes.
  static func applied(_ load: ServerLoad) -> ServerLoad {
    var applied = load
    applied.applyKept()
    return applied
  }

  // 70,000: past the limit of requests kept, so some are in the minutes and the rest kept.
  @Test("a kept load's minute totals equal those of its requests added to its minutes", arguments: [0, 1, 300, 70_000])
  func minuteTotals(requests: Int) {
    let kept = KeptRequestsTests.kept(requests, seed: 21)
    let applied = KeptRequestsTests.applied(kept)
    #expect(applied.isApplied)
    #expect(requests < ServerLoad.pendingLimit ? kept.busySlots.isEmpty : !kept.busySlots.isEmpty)
    #expect(kept.isApplied == (requests == 0))
    #expect(kept.minuteTotals() == applied.minuteTotals())
    #expect(applied.minuteTotals().busySlots.count == (requests == 0 ? 0 : applied.busySlots.count))
  }

  @Test(
    "absorbing or merging a kept load adds every minute its requests would, into a sparse or a dense sum",
    arguments: [(300, 200), (300, 30_000), (70_000, 200)])
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
    #expect(emptied.isApplied && emptied.busySlots.isEmpty, "an absorbed load keeps nothing")
  }

  @Test("a sum that began as a kept replication adds its own requests before it takes another's")
  func sumThatWasKept() {
    var sum = KeptRequestsTests.kept(250, seed: 24)
    var other = KeptRequestsTests.kept(250, seed: 25)
    var reference = KeptRequestsTests.applied(sum)
    reference.merge(KeptRequestsTests.applied(other))
    sum.absorb(&other)
    #expect(sum.isApplied)
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
      #expect(!kept.serverLoad.isApplied, "a phone that asked for something kept it")
      #expect(applied.serverLoad.isApplied)
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
