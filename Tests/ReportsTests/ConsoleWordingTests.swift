import Fleets
import Results
import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

@testable import Reports

/// What the console claims matches what it prints: an interval only where there is one, a breakdown that
/// adds up or says it does not, and the assumptions beside the figures.
@Suite("Console wording")
struct ConsoleWordingTests {
  @Test("a largest second's sources add up to it, or the line says what they add up to")
  func breakdownAddsUp() {
    #expect(LargestPeak.breakdown(total: 10, sources: ["a", "b"], requests: [6, 4]) == " (a 6, b 4)")
    #expect(
      LargestPeak.breakdown(total: 10, sources: ["a", "b", "c", "d"], requests: [4, 3, 2, 1])
        == " (a 4, b 3, c 2, 1 more)")
    // A sampled fleet's sources are estimated apart: 18,693 of them is not the second's 18,991.
    #expect(
      LargestPeak.breakdown(
        total: 18_991, sources: ["widget_fetches", "app_fetches_foreground"], requests: [17_000, 1_693])
        == " (widget_fetches 17000, app_fetches_foreground 1693, each estimated from the sample apart, they add up "
        + "to 18693, not 18991)")
    #expect(LargestPeak.breakdown(total: 0, sources: [], requests: []) == "")
  }

  @Test("[95% CI] only over figures that have one: one replication of every phone has none")
  func intervalOnlyWhereThereIsOne() throws {
    for (replications, note) in [(1, ""), (2, " [95% CI]")] {
      let configuration = try exampleScenario(
        "news-15min", overrides: ["fleet.devices=20", "fleet.represents=20", "days=1", "replications=\(replications)"])
      let results = (0..<replications).map { FleetRunner.run(configuration, replication: $0, jobs: 2).result }
      let summary = RunSummary(results: results, subjects: RunSummary.Subjects(configuration))
      let text = RunSummaryText.text(
        configuration: configuration, summary: summary, events: 1, directory: "out", seconds: 1)
      #expect(text.contains("per widget, mean over replications\(note):\n"), "\(text)")
      #expect(text.contains("each one's busiest second\(note):\n"), "\(text)")
      #expect(replications > 1 || !text.contains("95% CI"), "\(text)")
      // The warm-up the default install spread brings is said in the first line.
      #expect(text.hasPrefix("news-15min: 1 days (after a 1-day warm-up) x \(replications) replications"))
      #expect(text.contains("\nassumptions: network Wi-Fi 50% of hours, else LTE (device.network, "), "\(text)")
    }
  }
}
