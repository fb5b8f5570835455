import Fleets
import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

@Suite("Results reused and walked sparsely")
struct ResultReuseTests {
  /// Counts in `cells` of every hour, drawn from `seed`, with the dense array they stand for.
  static func wakes(hours: Int, cells: [Int], seed: UInt64) -> (AppWakeCounts, [Int64]) {
    var counts = AppWakeCounts(hours: hours)
    var dense = [Int64](repeating: 0, count: hours * AppWakeCounts.cellsPerHour)
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed, replication: 0, entity: 0, stream: 0))
    for hour in 0..<hours {
      for cell in cells where stream.bernoulli(0.5) {
        for _ in 0...Int(stream.uniform() * 3) {
          counts.add(hourIndex: hour, cell: cell)
          dense[hour * AppWakeCounts.cellsPerHour + cell] += 1
        }
      }
    }
    return (counts, dense)
  }

  @Test("app wakes merge, total and empty through their booked cells as through every cell")
  func appWakeCells() {
    // A phone's few cells (walked), a busy phone's many (every cell), and the first and last cells.
    // 22 of 45 cells are walked, 23 are not.
    for cells in [[0, 20], Array(0..<22), Array(0..<23), Array(0..<30), [0, 44]] {
      var (sum, denseSum) = ResultReuseTests.wakes(hours: 48, cells: Array(0..<45), seed: 1)
      let (phone, densePhone) = ResultReuseTests.wakes(hours: 48, cells: cells, seed: 2)
      var expectedTotals = [Int](repeating: 0, count: AppWakeCounts.cellsPerHour)
      for (index, count) in densePhone.enumerated() { expectedTotals[index % AppWakeCounts.cellsPerHour] += Int(count) }
      #expect(expectedTotals.reduce(0, +) > 0)
      #expect(phone.totals() == expectedTotals, "\(cells.count) cells")
      sum.merge(phone)
      for index in denseSum.indices { denseSum[index] += densePhone[index] }
      #expect(sum.counts == denseSum, "\(cells.count) cells")
      // Reused: emptied day by day, it holds nothing of the run before.
      var reused = phone
      reused.resetAllButDays()
      reused.clear(days: 0..<1, of: 2)
      #expect(reused.counts[..<(24 * AppWakeCounts.cellsPerHour)].allSatisfy { $0 == 0 })
      #expect(reused.counts[(24 * AppWakeCounts.cellsPerHour)...] == densePhone[(24 * AppWakeCounts.cellsPerHour)...])
      reused.clear(days: 1..<2, of: 2)
      #expect(reused.counts.allSatisfy { $0 == 0 }, "\(cells.count) cells")
      // A warm-up day cut off leaves the second day's counts; reset empties them all.
      var cut = phone
      cut.dropFirst(days: 1, of: 2)
      #expect(cut.hours == 24 && cut.counts == Array(densePhone[(24 * AppWakeCounts.cellsPerHour)...]))
      cut.reset()
      #expect(cut.counts.allSatisfy { $0 == 0 } && cut.bookedCells == 0)
      // Read from a file, any cell may hold counts: all are walked.
      var writer = BinaryWriter()
      phone.encode(to: &writer)
      var reader = BinaryReader(writer.bytes)
      let read = try? AppWakeCounts(from: &reader)
      #expect(read == phone)
      #expect(read?.bookedCells.nonzeroBitCount == AppWakeCounts.cellsPerHour)
    }
  }

  @Test("a thread's devices run their warm-ups into one scratch result, with the numbers of a fresh one each")
  func warmupScratchReused() {
    var configuration = FleetTests.fleet(devices: 8, days: 3)
    configuration.warmupDays = 1
    let broadcasts = BroadcastSchedule(configuration, replication: 0)
    let events = FleetEventSchedule(configuration, replication: 0)
    var reusing: ReplicationResult? = ReplicationResult(configuration, replication: 0)
    var fresh: ReplicationResult? = ReplicationResult(configuration, replication: 0)
    // A scratch of another shape (two warm-up days) is not used: the first device makes its own.
    var scratch: ReplicationResult? = ReplicationResult(
      replication: 0, days: 2, instanceCount: configuration.instances.count, keepsActivityRecords: false)
    for device in 0..<configuration.fleet.devices {
      let drawn = FleetDevice.draw(device, of: configuration, replication: 0)
      var record = DeviceRecord(measuredHours: 0..<0)
      reusing = DeviceSimulation.run(
        drawn, replication: 0, device: device, broadcasts: broadcasts, events: events, into: reusing.take(),
        warmupScratch: &scratch, record: &record)
      #expect(scratch?.days == 1, "the warm-up's scratch is handed back for the next device")
      var freshScratch: ReplicationResult?
      var freshRecord = DeviceRecord(measuredHours: 0..<0)
      fresh = DeviceSimulation.run(
        drawn, replication: 0, device: device, broadcasts: broadcasts, events: events, into: fresh.take(),
        warmupScratch: &freshScratch, record: &freshRecord)
      // The phone's own figures do not depend on what the results it ran into held.
      #expect(record.minimumStateOfChargePPM == freshRecord.minimumStateOfChargePPM, "device \(device)")
      #expect(
        record.reloadsPerDay == freshRecord.reloadsPerDay
          && record.measuredHours == 24..<configuration.simulatedDays * 24)
      // The reused scratch holds this device's warm-up alone, as a new one does, to the byte.
      #expect(scratch?.builds == freshScratch?.builds, "device \(device)")
      #expect(ResultReuseTests.bytes(scratch) == ResultReuseTests.bytes(freshScratch), "device \(device)")
    }
    guard var reused = reusing, var alone = fresh else { return #expect(Bool(false), "no result") }
    reused.dropWarmup(days: 1)
    alone.dropWarmup(days: 1)
    #expect(reused.eventsHandled == alone.eventsHandled)
    #expect(reused.fingerprint == alone.fingerprint)
    #expect(reused.reloads == alone.reloads)
    #expect(reused.energy.microjoules == alone.energy.microjoules)
    #expect(reused.stateOfChargePPM == alone.stateOfChargePPM)
    #expect(reused.serverLoad.fetches == alone.serverLoad.fetches)
    #expect(reused.appWakes == alone.appWakes)
    #expect(reused.staleness[0].seconds == alone.staleness[0].seconds)
    #expect(ResultReuseTests.bytes(reused) == ResultReuseTests.bytes(alone))
  }

  /// A result as a shard file holds it (a warm-up's scratch still holds its last day's server requests
  /// unapplied: they are applied to a copy first).
  static func bytes(_ result: ReplicationResult?) -> [UInt8]? {
    guard var result else { return nil }
    result.serverLoad.applyPending()
    var writer = BinaryWriter()
    result.encode(to: &writer)
    return writer.bytes
  }

  @Test("replications through a result pool, warm-up scratch included, equal replications without one")
  func pooledWarmups() {
    var configuration = FleetTests.fleet(devices: 5, days: 3)
    configuration.warmupDays = 1
    let pool = ResultPool()
    for replication in 0..<3 {
      let pooled = FleetRunner.run(configuration, replication: replication, jobs: 1, stop: nil, pool: pool)?.result
      let fresh = FleetRunner.run(configuration, replication: replication, jobs: 1, stop: nil)?.result
      #expect(pooled != nil && ResultReuseTests.bytes(pooled) == ResultReuseTests.bytes(fresh), "\(replication)")
      if let pooled { pool.give(pooled) }
    }
    #expect(pool.takeWarmupScratch()?.days == 1, "the pool kept the warm-up scratch")
  }

  @Test(
    "a replication absorbed into a sum adds what a merge adds, and the result it leaves, reset, serves the next replication as a fresh one",
    arguments: [1, 40])
  func absorbedResults(devices: Int) {
    // One phone: its energy columns, busy minutes and reload pairs are few, and absorbed through them; 40
    // phones: most minutes busy, absorbed whole.
    let configuration = FleetTests.fleet(devices: devices, days: 2)
    let pool = ResultPool()
    var merged: ReplicationResult?
    var absorbed: ReplicationResult?
    for replication in 0..<4 {
      guard let fresh = FleetRunner.run(configuration, replication: replication, jobs: 1, stop: nil)?.result,
        var pooled = FleetRunner.run(configuration, replication: replication, jobs: 1, stop: nil, pool: pool)?.result
      else {
        Issue.record("replication \(replication) did not run")
        return
      }
      #expect(ResultReuseTests.bytes(pooled) == ResultReuseTests.bytes(fresh), "replication \(replication)")
      guard merged != nil, absorbed != nil else {
        merged = fresh
        absorbed = pooled
        continue
      }
      merged!.merge(fresh)
      absorbed!.absorb(&pooled)
      #expect(ResultReuseTests.bytes(absorbed) == ResultReuseTests.bytes(merged), "sum after \(replication)")
      pool.give(pooled)
    }
    #expect(merged?.devices == 4 * devices)
  }
}
