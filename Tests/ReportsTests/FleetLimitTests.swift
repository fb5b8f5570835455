import Fleets
import TestSupport
import Testing
import WidgetModel

@testable import Results

/// No per-second figure may exceed what the whole fleet can make in a second (every phone making every
/// request it can at once), nor bytes that many requests of the largest response: over every example fleet,
/// counted from every phone or estimated from a sample, none is, and none had to be held to it.
@Suite("Per-second figures within what the fleet can make")
struct FleetLimitTests {
  /// Every example whose fleet has more than one phone, and the capacity case of phones acting together.
  static let fleets: [String] =
    TestFiles.exampleScenarios().filter { name in
      (try? exampleScenario(name).fleet.devices).map { $0 > 1 } ?? false
    } + ["capacity/herd-clock"]

  @Test("examples: counted and sampled figures within the fleet's limits", arguments: fleets)
  func withinLimits(_ name: String) throws {
    // A sample of 1 in 50, every phone of a small fleet, and 1 in 10,000 of a million phones (whose busiest
    // seconds hold more bytes than a 32-bit count).
    for (devices, phones) in [(100, 5_000), (300, 300), (100, 1_000_000)] {
      let configuration = try exampleScenario(
        name, overrides: ["fleet.devices=\(devices)", "fleet.represents=\(phones)", "days=1", "warmup_days=1"])
      let limits = FleetLoadLimits(configuration)
      let figures = FleetRunner.run(configuration, replication: 0, jobs: 2).result.provisioning
      #expect(!figures.isEmpty, "\(name): per-second figures")
      for figure in figures {
        #expect(!figure.heldToLimit, "\(name) \(devices) for \(phones): \(figure.stream) held to the fleet's limit")
        guard figure.stream == ServerDirection.received.name else { continue }
        let most = limits.receivedPerSecond
        #expect(figure.peakPerSecond <= most, "\(name): busiest second \(figure.peakPerSecond) over \(most)")
        #expect(figure.p99PerSecond <= most)
        if let high = figure.peakInterval?.high { #expect(high <= most) }
      }
    }
  }

  @Test("an estimate above the limit is held to it and says so")
  func heldToLimit() {
    let limits = FleetLoadLimits(phones: 1_000, receivedPerPhone: 2)
    var figure = ProvisioningFigures(
      stream: "received", meanPerSecond: 10, p99PerSecond: 30, peakPerSecond: 5_000, peakSecond: 7,
      peakBytesPerSecond: 1e15)
    figure.peakInterval = SampledInterval(low: 4_000, high: 6_000, samplingHalfWidth: 900)
    let held = figure.held(to: limits, largestResponse: 1e5)
    #expect(held.heldToLimit)
    #expect(held.peakPerSecond == 2_000 && held.peakInterval?.high == 2_000 && held.p99PerSecond == 30)
    #expect(held.peakBytesPerSecond == 2e8)
    let fine = ProvisioningFigures(
      stream: "received", meanPerSecond: 10, p99PerSecond: 30, peakPerSecond: 500, peakSecond: 7,
      peakBytesPerSecond: 1e7)
    #expect(fine.held(to: limits, largestResponse: 1e5) == fine)
  }
}
