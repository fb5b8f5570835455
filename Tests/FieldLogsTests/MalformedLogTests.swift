import FieldLogs
import TestSupport
import Testing

/// Every file of the malformed corpus (Tests/FieldLogsTests/Fixtures/malformed, also the fuzzer's seeds) is
/// an error that names the file and a line, never a crash or a silent pass.
@Suite struct MalformedLogTests {
  static let folder = Repository.path("Tests/FieldLogsTests/Fixtures/malformed")

  static func files() -> [String] { ((try? TestFiles.list(folder)) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted() }

  /// The server logs (CSV) of the corpus.
  static func serverFiles() -> [String] {
    ((try? TestFiles.list(folder)) ?? []).filter { $0.hasSuffix(".csv") }.sorted()
  }

  @Test func theCorpusIsThere() {
    #expect(MalformedLogTests.files().count >= 10)
    #expect(MalformedLogTests.serverFiles().count >= 6)
  }

  @Test(arguments: MalformedLogTests.serverFiles())
  func eachServerLogIsAnErrorWithItsLine(_ name: String) {
    var set = FieldLogSet(refreshIntervalSeconds: 900, lowBattery: 0.2, holdout: 0)
    do {
      try set.read([], serverLogs: ["\(MalformedLogTests.folder)/\(name)"])
      Issue.record("\(name) read without an error")
    } catch {
      #expect(error.file.hasSuffix(name))
      #expect(error.line != nil, "\(error)")
      #expect(error.description.hasPrefix(error.file + ":"))
    }
  }

  @Test(arguments: MalformedLogTests.files())
  func eachIsAnErrorWithItsLine(_ name: String) {
    var set = FieldLogSet(refreshIntervalSeconds: 900, lowBattery: 0.2, holdout: 0)
    do {
      try set.read(["\(MalformedLogTests.folder)/\(name)"])
      Issue.record("\(name) read without an error")
    } catch {
      #expect(error.file.hasSuffix(name))
      #expect(error.line != nil, "\(error)")
      #expect(error.description.hasPrefix(error.file + ":"))
    }
  }
}
