import FieldLogs
import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

/// Scenarios/field/field-log.jsonl is what `widgetsim run Scenarios/field/app.yaml --field-log` writes:
/// written again, it is the same file byte for byte (so the example follows the code, and the format does
/// not change unnoticed), and every line reads back to the entry it was written from.
@Suite struct ExampleLogTests {
  @Test func theExampleLogIsWhatTheScenarioWrites() throws {
    let configuration = try ScenarioLoader.load(path: Repository.path("Scenarios/field/app.yaml")).configuration
    let path = TestFiles.temporaryDirectory() + "/log.jsonl"
    try FieldLogWriter.write(configuration, to: path)
    let written = try TestFiles.read(path)
    #expect(written == (try TestFiles.read(Repository.path("Scenarios/field/field-log.jsonl"))))
  }

  @Test func everyLineReadsBackToItsEntry() throws {
    let configuration = try ScenarioLoader.load(path: Repository.path("Scenarios/field/app.yaml")).configuration
    var reader = FieldLogReader()
    for device in 0..<3 {
      let entries = FieldLogEntry.entries(
        of: ScenarioRunner.fieldLog(configuration, device: device), configuration: configuration)
      #expect(!entries.isEmpty)
      for (index, entry) in entries.enumerated() {
        let read = try reader.entry(Array(entry.line.utf8), path: "<example>", line: index + 1)
        #expect(read == entry, "\(entry.line)")
      }
    }
  }
}
