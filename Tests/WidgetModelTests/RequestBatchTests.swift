import SimulationEngine
import Testing

@testable import Results
@testable import WidgetModel

/// A fleet thread's requests, kept across devices and added in sorted batches, give the counts of adding them
/// a device at a time.
@Suite("Request batches")
struct RequestBatchTests {
  @Test("the radix sort orders requests by second, stably, clamping seconds outside the run")
  func sortsBySecond() {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 8, replication: 0, entity: 0, stream: 1))
    let first: Int64 = -14 * 3_600_000_000
    let secondCount = 5 * 86_400
    for size in [0, 1, 2, 1_000, 50_000] {
      // Seconds before the first and past the last too; equal seconds keep their order (the bytes say which).
      let requests = (0..<size).map { position in
        PendingRequest(
          utcMicros: first + Int64(stream.uniform() * Double(secondCount + 20_000) - 10_000) * 1_000_000
            + Int64(stream.uniform() * 999_999), bytes: Int64(position), source: 0, delivered: false)
      }
      func second(_ request: PendingRequest) -> Int64 {
        Swift.min(Swift.max((request.utcMicros - first) / 1_000_000, 0), Int64(secondCount - 1))
      }
      var sorted = requests
      var batch = RequestBatch()
      batch.sortBySecond(&sorted, firstMicros: first, secondCount: secondCount)
      let expected = requests.enumerated().sorted {
        (second($0.element), $0.offset) < (second($1.element), $1.offset)
      }.map(\.element.bytes)
      #expect(sorted.map(\.bytes) == expected)
    }
  }

  @Test("a thread's devices added in sorted batches give the server load of adding them a device at a time")
  func batchedEqualsPerDevice() {
    var widget = ModelFixtures.widget("w", policy: .after(.minutes(10)), changesPerHour: 3)
    widget.data.pushes.insert(.widget)
    var configuration = ModelFixtures.quiet([widget], days: 3)
    configuration.fleet.devices = 30
    configuration.server.perSecond = true
    func run(batching: Bool) -> ReplicationResult {
      var aggregate = ReplicationResult(configuration, replication: 0)
      aggregate.openAll()
      if batching { aggregate.serverLoad.startBatching() }
      for device in 0..<configuration.fleet.devices {
        let drawn = FleetDevice.draw(device, of: configuration, replication: 0)
        aggregate = DeviceSimulation.run(drawn, replication: 0, device: device, into: consume aggregate)
        // Kept, not added, while batching.
        #expect(aggregate.serverLoad.pending.isEmpty != batching)
      }
      if batching { aggregate.serverLoad.endBatching() }
      return aggregate
    }
    let perDevice = run(batching: false)
    let batched = run(batching: true)
    #expect(batched.serverLoad.fetches == perDevice.serverLoad.fetches)
    #expect(batched.serverLoad.bytes == perDevice.serverLoad.bytes)
    #expect(batched.serverLoad.pushesSent == perDevice.serverLoad.pushesSent)
    #expect(batched.serverLoad.fetches.reduce(0, +) > 1_000)
    let seconds = batched.serverLoad.seconds
    #expect(!seconds.isEmpty && seconds.secondCount == perDevice.serverLoad.seconds.secondCount)
    #expect(
      batched.serverLoad.seconds.provisioning(scale: 1) == perDevice.serverLoad.seconds.provisioning(scale: 1))
    #expect(
      (0..<seconds.secondCount).allSatisfy { second in
        ServerSource.allCases.allSatisfy {
          seconds.requests(second: second, source: $0)
            == perDevice.serverLoad.seconds.requests(second: second, source: $0)
        }
      })
  }
}
