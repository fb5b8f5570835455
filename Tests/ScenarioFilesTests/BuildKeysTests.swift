import SimulationEngine
import TestSupport
import Testing
import WidgetModel

@testable import ScenarioFiles

/// A widget's `build` keys, and a control's `value`, which takes them except `memory_per_entry`.
@Suite("Build keys")
struct BuildKeysTests {
  static func load(widget: String, timeline: String = "{policy: never}") throws(ScenarioError) -> LoadedScenario {
    let text = "name: t\nwidgets:\n  - id: w\n    kind: K\n    timeline: \(timeline)\n" + widget
    return try ScenarioLoader.load(text: text, file: "t.yaml")
  }

  @Test("build.memory_per_entry loads in bytes; without it the documented 25KB applies")
  func memoryPerEntryLoads() throws {
    let given = try Self.load(widget: "    build: {memory_per_entry: 1MB}\n")
    #expect(given.configuration.widgets[0].build.memoryPerEntryBytes == 1_000_000)
    let zero = try Self.load(widget: "    build: {memory_per_entry: 0B}\n")
    #expect(zero.configuration.widgets[0].build.memoryPerEntryBytes == 0)
    let absent = try Self.load(widget: "    build: {time_limit: 5s}\n")
    #expect(absent.configuration.widgets[0].build.memoryPerEntryBytes == 25_000)
  }

  @Test("a build peaks at memory + (entries - 1) x memory_per_entry, read from the file")
  func memoryPerEntryReachesTheModel() throws {
    // A constant 25 MB: + 9 x 0.5 MB = 29.5 MB stays under the 30 MiB ceiling, + 14 x 0.5 MB = 32 MB is
    // killed; at 0 per entry 15 entries stay at 25 MB.
    func jetsam(entries: Int, perEntry: String) throws -> (jetsam: Int, total: Int) {
      let loaded = try Self.load(
        widget: "    build: {memory: {dist: constant, value: 25MB}, memory_per_entry: \(perEntry)}\n",
        timeline: "{policy: after, after: 30m, entries: \(entries), spacing: 1m}")
      var configuration = loaded.configuration
      configuration.days = 1
      let result = ScenarioRunner.runReplication(configuration, replication: 0)
      return (result.total(instance: 0, outcome: .jetsam), result.total(instance: 0))
    }
    let under = try jetsam(entries: 10, perEntry: "500KB")
    #expect(under.jetsam == 0 && under.total > 0)
    let over = try jetsam(entries: 15, perEntry: "500KB")
    #expect(over.jetsam > 0)
    let none = try jetsam(entries: 15, perEntry: "0B")
    #expect(none.jetsam == 0 && none.total > 0)
  }

  @Test("memory_per_entry is a size in 0...1GB; the error names the key path, line and column")
  func memoryPerEntryChecked() {
    for (value, words) in [("-1KB", "between 0 and"), ("2GB", "between 0 and"), ("12", "expected a size")] {
      let error = #expect(throws: ScenarioError.self) {
        try Self.load(widget: "    build:\n      memory_per_entry: \(value)\n")
      }
      #expect(error?.keyPath == "widgets[w].build.memory_per_entry", "\(value)")
      #expect(error?.line == 7 && error?.column == 25, "\(value)")
      #expect(error?.message.contains(words) == true, "\(value): \(error?.message ?? "")")
    }
  }

  @Test("a control's value has one entry and refuses memory_per_entry")
  func controlRefusesPerEntry() {
    let text = """
      name: t
      widgets:
        - {id: w, kind: K, timeline: {policy: never}}
      controls:
        - id: c
          kind: Lock
          value: {memory_per_entry: 1MB}
      """
    let error = #expect(throws: ScenarioError.self) { try ScenarioLoader.load(text: text, file: "t.yaml") }
    #expect(error?.message.hasPrefix("unknown key 'memory_per_entry'") == true, "\(error?.message ?? "")")
  }

  @Test("every build key Scenarios/README.md documents for widgets is one the decoder reads")
  func documentedKeysAccepted() throws {
    let readme = try TestFiles.read(Repository.path("Scenarios/README.md"))
    let documented = Set(
      readme.split(separator: "\n").compactMap { line -> String? in
        guard let match = line.firstMatch(of: /^\| `build\.([a-z_]+)`/) else { return nil }
        return String(match.1)
      })
    #expect(documented.contains("memory_per_entry"))
    let error = #expect(throws: ScenarioError.self) { try Self.load(widget: "    build: {no_such_key: 1}\n") }
    let message = error?.message ?? ""
    let known = Set(message.matches(of: /'([a-z_]+)'/).map { String($0.1) }).subtracting(["no_such_key"])
    #expect(known == documented, "\(message)")
  }
}
