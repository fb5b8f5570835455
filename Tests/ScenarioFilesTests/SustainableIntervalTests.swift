import Testing
import WidgetModel

@testable import ScenarioFiles

/// `timeline.after` below what the reload budget sustains: accepted with a warning at the key.
@Suite("An after interval the budget cannot sustain")
struct SustainableIntervalTests {
  static func load(after: String, budget: String = "", delay: String = "0s") throws(ScenarioError) -> LoadedScenario {
    let text = """
      name: t
      user:
        sleep: {from: "23:30", to: "07:00"}
      system:
        after_delay: \(delay)
      \(budget)
      widgets:
        - id: w
          kind: K
          timeline: {policy: after, after: \(after)}

      """
    return try ScenarioLoader.load(text: text, file: "t.yaml")
  }

  @Test("15s and 900ms warn at timeline.after, naming the interval the budget sustains")
  func shortIntervalsWarn() throws {
    for after in ["15s", "900ms"] {
      let loaded = try Self.load(after: after)
      #expect(loaded.warnings.count == 1, "\(after): \(loaded.warnings)")
      let warning = try #require(loaded.warnings.first)
      #expect(warning.keyPath == "widgets[w].timeline.after" && warning.line == 10, "\(warning)")
      // 70 reloads in the 16.5 awake hours of the default budget: one every 849 s, 14.1 min.
      #expect(warning.message.contains("one every 14.1 min at best"), "\(warning.message)")
      #expect(warning.message.contains("budget.per_day.max 70"), "\(warning.message)")
    }
  }

  @Test("an interval the budget sustains, a debug budget, and the system's delay on top: no warning")
  func sustainedIntervalsPass() throws {
    #expect(try Self.load(after: "15m").warnings.isEmpty)
    #expect(try Self.load(after: "15s", budget: "budget: {debug: true}").warnings.isEmpty)
    // 10 min and a 5-min mean delay: a reload every 15 min, within the 14.1 min the budget sustains.
    #expect(try Self.load(after: "10m", delay: "{dist: exponential, mean: 5m}").warnings.isEmpty)
    #expect(try Self.load(after: "10m").warnings.count == 1)
    // budget.min_interval above the awake-hours share: it sets the interval.
    let slow = try Self.load(after: "20m", budget: "budget: {min_interval: 30m}")
    #expect(slow.warnings.first?.message.contains("one every 30 min at best") == true, "\(slow.warnings)")
  }
}
