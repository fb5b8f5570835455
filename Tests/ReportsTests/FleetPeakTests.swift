import Fleets
import Results
import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

@testable import Reports

/// Every fleet example's busiest seconds, received and sent, are explained by what the scenario says (an
/// event, a push fan-out) or are ordinary seconds of phones acting apart; no herd is left that nothing
/// explains; and the figures a user provisions for are pinned, so a change that moves them is deliberate.
@Suite("Fleet examples' busiest seconds")
struct FleetPeakTests {
  /// Every replication of `configuration`, each fleet spread over two threads.
  static func run(_ configuration: ScenarioConfiguration) -> [ReplicationResult] {
    (0..<configuration.replications).map { FleetRunner.run(configuration, replication: $0, jobs: 2).result }
  }

  /// The fleet examples, small enough for a test: (file, overrides).
  static let fleets: [(String, [String])] = [
    ("fleet-capacity", ["fleet.devices=400", "days=2", "replications=2"]),
    ("fleet-breaking-news", ["fleet.devices=400", "days=2", "replications=2"]),
    ("fleet-food-delivery", ["fleet.devices=400", "days=2", "replications=2"]),
    ("sports-broadcast", ["fleet.devices=400", "days=2", "replications=2"]),
  ]

  /// Per example: mean over replications of the busiest second and of the p99 second, received then sent
  /// (requests per second of the real fleet, estimated from the sample: see ``SampledLoadEstimate``), at the
  /// sizes above, rounded.
  static let pinned: [String: [Double]] = [
    "fleet-capacity": [2_973, 2_830, 781, 701],
    "fleet-breaking-news": [32_055, 5_765, 52_126, 1_983],
    "fleet-food-delivery": [668, 604, 172, 130],
    "sports-broadcast": [841, 773, 10_001, 0],
  ]

  @Test("busiest seconds explained or ordinary, no unexplained herd, peak and p99 pinned", arguments: 0..<4)
  func explainedAndPinned(_ index: Int) throws {
    let (file, overrides) = FleetPeakTests.fleets[index]
    let configuration = try exampleScenario(file, overrides: overrides)
    let results = FleetPeakTests.run(configuration)
    for result in results {
      #expect(result.perSecond.herds.allSatisfy { $0.explanation != nil }, "\(file): \(result.perSecond.herds)")
      for peak in result.perSecond.peaks {
        #expect(
          peak.explanation != nil || !peak.isHerd,
          "\(file) replication \(result.replication): \(peak.direction.name) peak at \(peak.second) is a herd")
      }
    }
    let summary = RunSummary(results: results, subjects: RunSummary.Subjects(configuration))
    var figures: [Double] = []
    for direction in ["received", "sent"] {
      for metric in ["peak_requests_per_second", "p99_requests_per_second"] {
        figures.append(try #require(summary.row(metric, widget: direction)).values.mean)
      }
    }
    #expect(figures.map { $0.rounded() } == FleetPeakTests.pinned[file], "\(file): \(figures)")
  }

  @Test("an event's fan-out and a push-to-start's are what the busiest second sent is explained by")
  func fanOutsExplainTheSentPeak() throws {
    for (file, label) in [
      ("fleet-breaking-news", "event "),
      ("sports-broadcast", "live_activities[game].starts.at (push-to-start fan-out)"),
    ] {
      let configuration = try exampleScenario(file, overrides: ["fleet.devices=400", "days=2", "replications=1"])
      let result = try #require(FleetPeakTests.run(configuration).first)
      let sent = result.perSecond.peaks[1]
      #expect(sent.explanation?.hasPrefix(label) == true, "\(file): \(String(describing: sent.explanation))")
      // Paced: the busiest second sent is the server's push rate, give or take one simulated phone's pushes
      // (a phone's place in the fan-out falls in one second or the next) and another's own push.
      let rate = try #require(configuration.server.pushRatePerSecond)
      let phone = configuration.fleet.scale * 2
      #expect(sent.requests <= rate + 2 * phone, "\(file): \(sent.requests) pushes in one second at \(rate)/s")
      #expect(sent.requests >= rate - phone, "\(file): \(sent.requests) pushes in one second at \(rate)/s")
    }
  }

  @Test("the console gives received and sent apart, the peak's interval, and the largest with its second and sources")
  func consoleHeadline() throws {
    let configuration = try exampleScenario(
      "sports-broadcast", overrides: ["fleet.devices=200", "days=1", "replications=3"])
    let results = FleetPeakTests.run(configuration)
    var total = RunTotal()
    for result in results { total.add(result) { _ in "" } }
    let summary = RunSummary(results: results, subjects: RunSummary.Subjects(configuration))
    let text = RunSummaryText.text(
      configuration: configuration, summary: summary, events: 1, directory: "out", seconds: 1,
      largestPeaks: total.largest.map(\.text))
    let sent = try #require(summary.row("peak_requests_per_second", widget: "sent"))
    let interval = try #require(sent.interval, "a busiest second has an interval")
    let figure = RunSummaryText.withInterval(sent.values.mean, (interval.low, interval.high), 0)
    #expect(
      text.contains("  sent (pushes to APNs, broadcast requests): busiest second \(figure) requests/s"), "\(text)")
    #expect(text.contains("  received (fetches, token registrations): busiest second "), "\(text)")
    #expect(text.contains("the mean over 3 replications of each one's busiest second [95% CI]"))
    #expect(!text.contains("total"), "no figure adds what is received and what is sent")
    // The largest sent: the push-to-start fan-out at 18:55 UTC, its source and what explains it.
    let largest = try #require(
      text.split(separator: "\n").first { $0.hasPrefix("    largest:") && $0.contains("activity") })
    // The fan-out from 18:55 at the push rate: its busiest second, estimated for the whole fleet, falls in it.
    #expect(largest.contains("at 18:5") && largest.contains("UTC (activity_pushes_sent "), "\(largest)")
    #expect(largest.hasSuffix("; the scenario: live_activities[game].starts.at (push-to-start fan-out) 18:55"))
  }
}
