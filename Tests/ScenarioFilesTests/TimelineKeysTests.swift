import SimulationEngine
import Testing
import WidgetModel

@testable import ScenarioFiles

/// The timeline keys for clock-aligned dates, listed times, active windows and close entries.
@Suite("Timeline keys")
struct TimelineKeysTests {
  static func load(_ timeline: String, system: String = "") throws(ScenarioError) -> LoadedScenario {
    let text = "name: t\nwidgets:\n  - id: w\n    kind: K\n    timeline: \(timeline)\n" + system
    return try ScenarioLoader.load(text: text, file: "t.yaml")
  }

  @Test("align, at, active and the single-entry delay load into the configuration")
  func keysLoad() throws {
    let aligned = try Self.load("{policy: after, after: 15m, align: clock, active: {from: \"09:30\", to: \"16:00\"}}")
    let timeline = aligned.configuration.widgets[0].timeline
    #expect(timeline.alignment == .clock && timeline.policy == .after(.minutes(15)))
    #expect(
      timeline.activeWindow == SleepWindow(from: TimeOfDay(hours: 9, minutes: 30), to: TimeOfDay(hours: 16, minutes: 0))
    )
    let listed = try Self.load("{policy: after, at: [\"09:30\", \"16:00\"]}")
    #expect(
      listed.configuration.widgets[0].timeline.times == [
        TimeOfDay(hours: 9, minutes: 30), TimeOfDay(hours: 16, minutes: 0),
      ])
    let single = try Self.load(
      "{policy: at_end}", system: "system:\n  at_end_single_entry_delay: {dist: constant, value: 20m}\n")
    #expect(single.configuration.system.atEndSingleEntryDelay.mean == 1_200)
  }

  @Test(
    "misplaced timeline keys are errors naming the key",
    arguments: [
      ("{policy: at_end, align: clock}", "timeline.align", "align: clock needs policy after"),
      ("{policy: after, after: 15m, at: [\"09:30\"]}", "timeline.after", "give either 'after'"),
      ("{policy: at_end, at: [\"09:30\"]}", "timeline.at", "'at' applies only to policy after"),
      ("{policy: never, active: {from: \"09:00\", to: \"17:00\"}}", "timeline.active", "'active' needs a policy"),
      ("{policy: after, at: [\"09:30\", \"09:30\"]}", "timeline.at[1]", "\"09:30\" is listed twice"),
      ("{policy: after, after: 15m, align: sun}", "timeline.align", "expected one of none, clock"),
    ])
  func errors(_ timeline: String, _ keyPath: String, _ message: String) {
    do {
      _ = try Self.load(timeline)
      Issue.record("loaded \(timeline)")
    } catch {
      #expect(error.keyPath == "widgets[w].\(keyPath)", "\(error)")
      #expect(error.message.contains(message), "\(error)")
    }
  }

  @Test(
    "entries under 5 minutes apart load with a warning at the spacing; 5 minutes and more, or a single entry, without")
  func closeEntriesWarn() throws {
    let close = try Self.load("{policy: at_end, entries: 30, spacing: 1m}")
    #expect(close.configuration.widgets[0].timeline.spacing == .minutes(1))
    #expect(close.warnings.count == 1)
    #expect(close.warnings.first?.keyPath == "widgets[w].timeline.spacing")
    #expect(close.warnings.first?.line == 5)
    #expect(close.warnings.first?.message.hasPrefix("warning: entries") == true)
    #expect(try Self.load("{policy: at_end, entries: 30, spacing: 5m}").warnings.isEmpty)
    #expect(try Self.load("{policy: at_end, spacing: 1m}").warnings.isEmpty, "one entry: the spacing does not matter")
  }
}
