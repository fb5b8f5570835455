import Fleets
import Reports
import Results
import TestSupport
import Testing
import WidgetModel

/// The per-second figures estimated from a sample of a fleet against those of the run that simulates every
/// phone: for each fleet example, samples standing for 10 and 100 phones each, over two seeds. The figure
/// passes when the estimate is within 10% of the whole fleet's (or one request: counts are whole numbers,
/// and at this size a p99 is a few requests) or its 95% interval holds it. The cases that do not yet are
/// listed (`knownMisses`, as docs/capacity.md's check says), so a change that fixes one or breaks another shows.
@Suite("A sample's per-second estimates against the whole fleet", .slow("whole fleets simulated for many seeds"))
struct SampleValidationTests {
  /// Phones in the whole fleet: small enough for a test, large enough that its busiest seconds are tens to
  /// hundreds of requests.
  static let phones = 2_000
  static let seeds: [UInt64] = [11, 12]
  static let fleets = ["fleet-capacity", "fleet-breaking-news", "fleet-food-delivery"]
  /// What misses today: at this size a breaking-news push's response is a few dozen simulated requests a
  /// second (20 to 200 phones), too few to tell its decaying shape from noise (one of the four received
  /// busiest seconds); and 20 food-delivery phones send too few pushes for their pairs to be told from a
  /// rate that varies (the third moment's error), so the negative binomial's heavier tail reads their
  /// busiest second sent high (one of the four). docs/capacity.md measures coverage at sizes a capacity
  /// plan uses.
  static let knownMisses: [String: [String]] = [
    "fleet-breaking-news": ["seed 11 1 in 100 received busiest"],
    "fleet-food-delivery": ["seed 11 1 in 100 sent busiest"],
  ]

  /// Received then sent figures of one replication.
  static func figures(_ file: String, seed: UInt64, devices: Int) throws -> [ProvisioningFigures] {
    let configuration = try exampleScenario(
      file,
      overrides: [
        "fleet.devices=\(devices)", "fleet.represents=\(phones)", "days=1", "warmup_days=1", "replications=1",
        "seed=\(seed)",
      ])
    return Array(FleetRunner.run(configuration, replication: 0, jobs: 2).result.provisioning.prefix(2))
  }

  @Test(
    "estimates from 1 in 10 and 1 in 100 phones are within 10% of the whole fleet's, or their interval holds it",
    arguments: 0..<3)
  func againstTheWholeFleet(_ index: Int) throws {
    let file = SampleValidationTests.fleets[index]
    var misses: [String] = []
    var report: [String] = []
    for seed in SampleValidationTests.seeds {
      let whole = try SampleValidationTests.figures(file, seed: seed, devices: SampleValidationTests.phones)
      #expect(whole.allSatisfy { $0.raw == nil && $0.peakInterval == nil }, "every phone: counted, not estimated")
      for scale in [10, 100] {
        let sample = try SampleValidationTests.figures(file, seed: seed, devices: SampleValidationTests.phones / scale)
        for (estimated, counted) in zip(sample, whole) {
          let checks: [(String, Double, SampledInterval?, Double)] = [
            ("p99", estimated.p99PerSecond, estimated.p99Interval, counted.p99PerSecond),
            ("busiest", estimated.peakPerSecond, estimated.peakInterval, counted.peakPerSecond),
          ]
          for (name, value, interval, truth) in checks {
            let interval = try #require(interval, "\(file): an estimate has its interval")
            let close = abs(value - truth) <= Swift.max(0.1 * truth, 1)
            let held = interval.low <= truth && truth <= interval.high
            let what = "seed \(seed) 1 in \(scale) \(counted.stream) \(name)"
            report.append("\(what): \(value) [\(interval.low), \(interval.high)] against \(truth)")
            if !(close || held) { misses.append(what) }
          }
        }
      }
    }
    #expect(misses == SampleValidationTests.knownMisses[file] ?? [], "\(file):\n\(report.joined(separator: "\n"))")
  }
}
