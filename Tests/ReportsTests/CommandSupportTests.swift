import CommandSupport
import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

@testable import Reports

@Suite("What commands share: the summary text, failures, the console's progress line")
struct CommandSupportTests {
  @Test("the run summary's lines: headline per widget, a CI only with more than one replication")
  func summaryText() throws {
    let configuration = try ScenarioLoader.loadDefault(overrides: [try ScenarioOverride("days=2")]).configuration
    let results = ScenarioRunner.run(configuration)
    let subjects = RunSummary.Subjects(configuration)
    let labels = configuration.instances.map(\.label)
    for (results, bracketed) in [(results, true), (Array(results.prefix(1)), false)] {
      let summary = RunSummary(results: results, subjects: subjects)
      let text = RunSummaryText.text(
        configuration: configuration, summary: summary, events: 1_234, directory: "out", seconds: 1.5)
      let lines = text.split(separator: "\n").map(String.init)
      #expect(
        lines[0]
          == "\(configuration.name): 2 days x \(configuration.replications) replications, \(labels.count) widget "
          + "instances, 1234 events in 1.50 s")
      #expect(lines[1] == "reports: out/ (\(RunReports.files.joined(separator: ", ")))")
      // "[95% CI]" only over figures that have one: a single replication has none.
      #expect(lines[2] == "per widget, mean over replications\(bracketed ? " [95% CI]" : ""):")
      // A line per widget, then what the phone pays for all of it and the assumptions it rests on.
      #expect(lines.count == 3 + labels.count + 2)
      #expect(
        lines.last?.hasPrefix("assumptions: network Wi-Fi 50% of hours, else LTE (device.network, the default") == true)
      let row = try #require(summary.row("reloads_per_day", widget: labels[0]))
      let mean = RunSummaryText.fixed(row.values.mean, 1)
      #expect(lines[3].hasPrefix("  \(labels[0]): reloads/day \(mean)\(bracketed ? " [" : " (budgeted")"))
      #expect(lines[3].contains(", withheld/day ") && lines[3].contains(" of days, energy (widget alone) "))
      #expect(lines[3].hasSuffix(" mWh/day"))
      let phone = try #require(summary.row("phone_mwh_per_day", widget: "device")).values.mean
      #expect(
        lines[3 + labels.count].hasPrefix("what the phone pays (widgets, the app's own runs, push wake-ups, radio): "))
      #expect(lines[3 + labels.count].contains("\(RunSummaryText.fixed(phone, 2))\(bracketed ? " [" : " mWh/day")"))
    }
  }

  @Test("fixed decimals without Foundation: rounding half away from zero, no negative zero, - for non-finite")
  func fixedDecimals() {
    #expect(RunSummaryText.fixed(3.14159, 2) == "3.14")
    #expect(RunSummaryText.fixed(1.25, 1) == "1.3")
    #expect(RunSummaryText.fixed(-2.5, 0) == "-3")
    #expect(RunSummaryText.fixed(-0.04, 1) == "0.0")
    #expect(RunSummaryText.fixed(7, 3) == "7.000")
    #expect(RunSummaryText.fixed(0.05, 2) == "0.05")
    #expect(RunSummaryText.fixed(.nan, 2) == "-")
    #expect(RunSummaryText.fixed(.infinity, 0) == "-")
  }

  @Test("percentiles for report readers are the summaries' (Hyndman-Fan 7)")
  func percentiles() {
    #expect(Percentiles.of([5, 1, 4, 2, 3], at: [0, 0.25, 0.5, 0.75, 1]) == [1, 2, 3, 4, 5])
    #expect(Percentiles.of([10, 0], at: [0.25, 0.5]) == [2.5, 5])
  }

  @Test("a failure keeps its status and message; mapping wraps other errors once")
  func commandFailure() throws {
    struct Broken: Error, CustomStringConvertible { var description: String { "it broke" } }
    let wrapped = try #require(throws: CommandFailure.self) {
      try CommandFailure.mapping(status: 2, prefix: "--out ") { throw Broken() }
    }
    #expect(wrapped == CommandFailure(status: 2, message: "error: --out it broke"))
    let passed = try #require(throws: CommandFailure.self) {
      try CommandFailure.mapping(status: 2) { throw CommandFailure(status: 143, message: "interrupted") }
    }
    #expect(passed == CommandFailure(status: 143, message: "interrupted"))
    #expect(try CommandFailure.mapping(status: 1) { 42 } == 42)
    #expect(CommandFailure.badInput("x").status == 2 && CommandFailure.failed("x").status == 1)
  }

  @Test("a progress line is drawn only on a terminal, each update replacing the last")
  func progressLine() throws {
    let written = SynchronizedText()
    let plain = Console(output: { _ in }, error: { written.append($0) })
    #expect(ProgressLine.make(days: 1, replications: 1, console: plain) == nil)
    let terminal = Console(errorIsTerminal: true, output: { _ in }, error: { written.append($0) })
    let line = try #require(ProgressLine.make(days: 1, replications: 1, console: terminal))
    line.tasks(3, of: 10)
    line.finish()
    #expect(written.text == "\r\u{1B}[2K3/10 tasks\r\u{1B}[2K")
  }
}
