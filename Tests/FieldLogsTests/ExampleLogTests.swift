import FieldLogs
import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

/// Scenarios/field/field-log.jsonl and server-log.csv are what `widgetsim run Scenarios/field/app.yaml
/// --field-log --server-log` writes: written again, they are the same files byte for byte (so the example
/// follows the code, and the formats do not change unnoticed), and every line reads back to the entry it
/// was written from.
@Suite struct ExampleLogTests {
  @Test func theExampleLogIsWhatTheScenarioWrites() throws {
    let configuration = try ScenarioLoader.load(path: Repository.path("Scenarios/field/app.yaml")).configuration
    let folder = TestFiles.temporaryDirectory()
    try FieldLogWriter.write(configuration, to: folder + "/log.jsonl", serverLog: folder + "/server.csv")
    #expect(
      try TestFiles.read(folder + "/log.jsonl") == TestFiles.read(Repository.path("Scenarios/field/field-log.jsonl")))
    #expect(
      try TestFiles.read(folder + "/server.csv") == TestFiles.read(Repository.path("Scenarios/field/server-log.csv")))
  }

  @Test func everyLineReadsBackToItsEntry() throws {
    let configuration = try ScenarioLoader.load(path: Repository.path("Scenarios/field/app.yaml")).configuration
    var reader = FieldLogReader()
    for device in 0..<3 {
      let entries = FieldLogEntry.entries(
        of: ScenarioRunner.fieldLog(configuration, device: device), configuration: configuration)
      #expect(!entries.isEmpty)
      for (index, entry) in entries.enumerated() {
        if case .serverSent = entry.event { continue }
        let read = try reader.entry(Array(entry.line.utf8), path: "<example>", line: index + 1)
        #expect(read == entry, "\(entry.line)")
      }
      #expect(entries.contains { if case .serverSent = $0.event { true } else { false } })
    }
  }
}
