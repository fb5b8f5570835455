import Fleets
import Testing
import WidgetModel

@testable import Reports

/// A sample too small for a fleet event's response says so, with the size that would do.
@Suite("A sample too small for a story's busiest second")
struct SparseSampleWarningTests {
  /// The warnings of one replication of fleet-breaking-news, `devices` phones for 20,000.
  static func warnings(devices: Int) throws -> (warnings: [String], requests: Double) {
    let configuration = try exampleScenario(
      "fleet-breaking-news",
      overrides: ["fleet.devices=\(devices)", "fleet.represents=20000", "days=1", "warmup_days=1"])
    let result = FleetRunner.run(configuration, replication: 0, jobs: 2).result
    let summary = RunSummary(results: [result], subjects: RunSummary.Subjects(configuration))
    let raw = summary.row("raw_peak_requests_per_second", widget: "received")?.values.mean ?? 0
    return (SparseSampleWarning.warnings(configuration, summary), raw / configuration.fleet.scale)
  }

  @Test("200 phones for 20,000 hold a handful of a story's requests: warned, with the phones that would do")
  func smallSample() throws {
    let (warnings, requests) = try SparseSampleWarningTests.warnings(devices: 200)
    #expect(requests < SparseSampleWarning.fewestRequests)
    #expect(warnings.count == 1)
    // The size asked for gives the fewest requests at the same share of phones, rounded up to hundreds.
    let needed = Int((200 * SparseSampleWarning.fewestRequests / requests / 100).rounded(.up)) * 100
    #expect(warnings.first?.contains("simulate about \(needed) phones (fleet.devices)") == true, "\(warnings)")
  }

  /// 4,000 phones: at 2,000 the busiest second holds about 62 requests, the threshold itself, and which side
  /// of it a seed lands on is the draw's (docs/capacity.md: one seed of 20 still warned); twice as many
  /// phones hold about twice as many, several standard deviations of a count above it.
  @Test("4,000 phones for 20,000 hold enough of it: no warning")
  func largeEnoughSample() throws {
    let (warnings, requests) = try SparseSampleWarningTests.warnings(devices: 4_000)
    #expect(requests >= SparseSampleWarning.fewestRequests)
    #expect(warnings.isEmpty, "\(warnings)")
  }
}
