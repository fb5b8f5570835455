import FieldLogs
import TestSupport
import Testing
import WidgetModel

@Suite struct FieldLogReaderTests {
  /// Reads `text` as a log file; the entries and the reader (for its counts).
  func read(_ text: String) throws -> ([FieldLogEntry], FieldLogReader) {
    let path = TestFiles.temporaryDirectory() + "/log.jsonl"
    try TestFiles.write(text, to: path)
    var reader = FieldLogReader()
    var entries: [FieldLogEntry] = []
    try reader.read(path: path) { entry, _ in entries.append(entry) }
    return (entries, reader)
  }

  func failure(_ text: String) throws -> FieldLogError {
    let path = TestFiles.temporaryDirectory() + "/log.jsonl"
    try TestFiles.write(text, to: path)
    var reader = FieldLogReader()
    do {
      try reader.read(path: path) { _, _ in }
    } catch {
      return error
    }
    Issue.record("no error for \(text)")
    return FieldLogError(file: "", line: nil, "")
  }

  @Test func readsEveryEventWithItsFields() throws {
    let (entries, reader) = try read(
      """
      {"t":"2026-01-05T08:00:00.000+01:00","device":"a","event":"timeline","kind":"News","family":"systemSmall","policy":"after","next":"2026-01-05T08:30:00+01:00","entries":1}
      {"t":"2026-01-05T08:01:00+01:00","device":"a","event":"reload_call","kind":null}\r
      {"t":"2026-01-05T08:02:00+01:00","device":"a","event":"app_foreground","from_widget":true}

      {"t":"2026-01-05T08:03:00+01:00","device":"a","event":"battery","level":0.5,"low_power":false,"charging":true}
      """)
    #expect(entries.count == 4)
    #expect(reader.lines == 5)
    guard case .timeline(let kind, let family, let policy, let next?, let count) = entries[0].event else {
      Issue.record("not a timeline: \(entries[0].event)")
      return
    }
    #expect(kind == "News" && family == "systemSmall" && policy == "after" && count == 1)
    #expect(next.utcMicroseconds - entries[0].time.utcMicroseconds == 1_800_000_000)
    #expect(entries[1].event == .reloadCall(kind: nil))
    #expect(entries[2].event == .appForeground(fromWidget: true))
    #expect(entries[3].event == .battery(level: 0.5, lowPower: false, charging: true))
  }

  @Test("every push kind's delivery line, named by the push-kind table, reads back as that kind's delivery")
  func readsEveryPushKindsDelivery() throws {
    let time = try #require(FieldLogTime(text: "2026-01-05T08:00:00.000+01:00"))
    let written = PushKind.allCases.map { FieldLogEntry(time: time, device: "a", event: .delivered($0)) }
    let (entries, reader) = try read(written.map(\.line).joined(separator: "\n"))
    #expect(entries == written)
    #expect(reader.unknownEvents.isEmpty)
  }

  @Test func skipsAndCountsWhatItDoesNotKnow() throws {
    let (entries, reader) = try read(
      """
      {"t":"2026-01-05T08:00Z","device":"a","event":"app_background","screen":"home"}
      {"t":"2026-01-05T08:01Z","device":"a","event":"purchase","amount":3}
      {"t":"2026-01-05T08:02Z","device":"a","event":"purchase"}
      """)
    #expect(entries.count == 1)
    #expect(reader.unknownEvents == ["purchase": 2])
    #expect(reader.unknownFields == ["app_background.screen": 1])
  }

  @Test(arguments: [
    ("{\"t\":\"2026-01-05T08:00Z\",\"device\":\"a\"", "not a JSON object"),
    ("[1, 2]", "expected a JSON object"),
    ("{\"device\":\"a\",\"event\":\"app_background\"}", "missing \"t\""),
    ("{\"t\":\"yesterday\",\"device\":\"a\",\"event\":\"app_background\"}", "\"t\": expected an ISO-8601 time"),
    (
      "{\"t\":\"2026-01-05T08:00Z\",\"device\":\"a\",\"event\":\"battery\",\"level\":80}",
      "\"level\": expected a number in 0.0...1.0"
    ),
    (
      "{\"t\":\"2026-01-05T08:00Z\",\"device\":\"a\",\"event\":\"timeline\",\"kind\":\"K\",\"policy\":\"soon\"}",
      "\"policy\": expected after, at_end or never"
    ),
    (
      "{\"t\":\"2026-01-05T08:00Z\",\"device\":\"a\",\"event\":\"app_foreground\",\"from_widget\":\"yes\"}",
      "\"from_widget\": expected true or false"
    ),
    ("{\"t\":\"2026-01-05T08:00Z\",\"device\":\"a\",\"event\":5}", "\"event\": expected a string, got 5"),
    (
      "{\"t\":\"2026-01-05T08:00Z\",\"device\":\"\",\"event\":\"app_foreground\"}",
      "\"device\": expected the phone's id"
    ),
    (
      "{\"t\":\"2026-01-05T08:00+15:00\",\"device\":\"a\",\"event\":\"app_foreground\"}",
      "the UTC offset +15:00 of \"2026-01-05T08:00+15:00\" is outside -14:00...+14:00"
    ),
    (
      "{\"t\":\"2026-01-05T08:00+14:30\",\"device\":\"a\",\"event\":\"app_foreground\"}",
      "the UTC offset +14:30 of \"2026-01-05T08:00+14:30\" is outside -14:00...+14:00"
    ),
    ("this is not json", "expected a JSON object, e.g. {\"t\": ..., \"device\": ..., \"event\": ...}; the line begins"),
  ])
  func aBadLineNamesTheFileAndLine(line: String, message: String) throws {
    let error = try failure("{\"t\":\"2026-01-05T07:00Z\",\"device\":\"a\",\"event\":\"app_background\"}\n\(line)\n")
    #expect(error.line == 2)
    #expect(error.file.hasSuffix("log.jsonl"))
    #expect(error.message.contains(message), "\(error)")
  }

  @Test func textThatIsNotUTF8IsAnErrorAtItsByte() throws {
    let path = TestFiles.temporaryDirectory() + "/log.jsonl"
    let before = Array(#"{"t":"2026-01-05T08:00Z","device":"a"#.utf8)
    try TestFiles.write(bytes: before + [0xFF] + Array(#"","event":"app_background"}"#.utf8) + [0x0A], to: path)
    var reader = FieldLogReader()
    do {
      try reader.read(path: path) { _, _ in }
      Issue.record("a line with an invalid UTF-8 byte was read")
    } catch {
      #expect(error.line == 1)
      #expect(error.message == "not UTF-8 text (an invalid byte at byte \(before.count + 1))", "\(error)")
    }
  }

  @Test func aPhoneGoingBackInTimeIsAnError() throws {
    let path = TestFiles.temporaryDirectory() + "/log.jsonl"
    try TestFiles.write(
      """
      {"t":"2026-01-05T08:00Z","device":"a","event":"app_foreground"}
      {"t":"2026-01-05T07:00Z","device":"b","event":"app_foreground"}
      {"t":"2026-01-05T07:59Z","device":"a","event":"app_background"}
      """, to: path)
    var set = FieldLogSet(refreshIntervalSeconds: 900, lowBattery: 0.2, holdout: 0)
    #expect(throws: FieldLogError.self) { try set.read([path]) }
    do {
      try set.read([path])
    } catch {
      #expect(error.line == 3)
      #expect(error.message.contains("earlier than device a's previous record"))
    }
  }
}
