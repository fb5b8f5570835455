import Fleets
import Results
import TestSupport
import Testing
import WidgetModel

/// A fleet whose phones act in the same second (Scenarios/capacity/herd-clock.yaml: a clock-aligned
/// 15-minute widget with no system lateness): a sample of 1 in 50 phones must count those seconds as the
/// share of phones acting then, scaled, not smooth them into a rate, which put the busiest second 12 times
/// too low and the p99 17 times too high.
@Suite("A sample of a fleet acting together", .slow("fleets of 20,000 phones simulated whole"))
struct SharedMomentSampleTests {
  static let phones = 20_000

  /// Received figures of one replication: every phone, or a sample of `devices` standing for them.
  static func received(seed: UInt64, devices: Int) throws -> ProvisioningFigures {
    let configuration = try exampleScenario(
      "capacity/herd-clock", overrides: ["fleet.devices=\(devices)", "fleet.represents=\(phones)", "seed=\(seed)"])
    return try #require(FleetRunner.run(configuration, replication: 0, jobs: 2).result.provisioning.first)
  }

  @Test(
    "1 in 50: busiest second, p99 and busiest second's bytes within 15% of every phone's, intervals holding them",
    arguments: [UInt64(1), 2])
  func againstEveryPhone(_ seed: UInt64) throws {
    let whole = try SharedMomentSampleTests.received(seed: seed, devices: SharedMomentSampleTests.phones)
    let sample = try SharedMomentSampleTests.received(seed: seed, devices: SharedMomentSampleTests.phones / 50)
    // Most phones fetch in the same second: the busiest second is thousands of times the p99.
    #expect(whole.peakPerSecond > 100 * whole.p99PerSecond)
    let checks: [(String, Double, SampledInterval?, Double)] = [
      ("busiest", sample.peakPerSecond, sample.peakInterval, whole.peakPerSecond),
      ("p99", sample.p99PerSecond, sample.p99Interval, whole.p99PerSecond),
      ("bytes", sample.peakBytesPerSecond ?? 0, sample.peakBytesInterval, whole.peakBytesPerSecond ?? 0),
    ]
    for (name, value, interval, truth) in checks {
      #expect(abs(value - truth) <= 0.15 * truth, "\(name): \(value) against \(truth)")
      let interval = try #require(interval, "\(name) has its interval")
      // Counts are whole numbers: half a request either side.
      #expect(interval.low - 0.5 <= truth && truth <= interval.high + 0.5, "\(name): \(interval) against \(truth)")
    }
  }

  @Test("5,000 for a million: the busiest second's bytes are its shared second's, scaled, not held to a limit")
  func millionPhones() throws {
    let configuration = try exampleScenario(
      "capacity/herd-clock", overrides: ["fleet.devices=5000", "fleet.represents=1000000"])
    let sample = try #require(FleetRunner.run(configuration, replication: 0, jobs: 2).result.provisioning.first)
    // The busiest second is a clock-aligned one that about 3,500 of the sample's phones share: counted, it
    // is off by its count's own error (under 2% at 95%), so the estimate is within 5% of it and holds it.
    let counted = try #require(sample.raw?.peakBytesPerSecond)
    let bytes = try #require(sample.peakBytesPerSecond)
    let interval = try #require(sample.peakBytesInterval)
    #expect(!sample.heldToLimit)
    #expect(abs(bytes - counted) <= 0.05 * counted, "\(bytes) against \(counted)")
    #expect(interval.low <= counted && counted <= interval.high && interval.low < interval.high, "\(interval)")
  }
}
