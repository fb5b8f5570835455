import FieldLogs
import TestSupport
import Testing

/// A log read on several threads gives what one thread gives, record for record (the phones in order of
/// first appearance across the state's chunks), count for count and error for error.
@Suite struct ParallelReadTests {
  /// 9,000 phones (more than two of the state's chunks) that each open the app 5 times, interleaved, on
  /// three clocks, with an event and a field the format does not know now and then: 45,000 lines and more
  /// (more than one parsing batch).
  static func log() -> String {
    var lines: [String] = []
    let start: Int64 = 1_767_225_600_000_000
    for open in 0..<5 {
      for phone in 0..<9_000 {
        let t = start + Int64(open * 14_400 + phone % 3_600) * 1_000_000
        let time = FieldLogTime(utcMicroseconds: t, offsetSeconds: [0, 3_600, 19_800][phone % 3]).text
        let extra = phone % 997 == 0 ? #","screen":"home""# : ""
        lines.append(#"{"t":"\#(time)","device":"phone-\#(phone)","event":"app_foreground"\#(extra)}"#)
        if phone % 1_009 == 0 { lines.append(#"{"t":"\#(time)","device":"phone-\#(phone)","event":"wave"}"#) }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func read(_ path: String, jobs: Int) throws -> (FieldSample, FieldLogSet) {
    var set = FieldLogSet(refreshIntervalSeconds: 900, lowBattery: 0.2, holdout: 0)
    try set.read([path], jobs: jobs)
    return (set.samples().fit, set)
  }

  @Test func twoThreadsReadWhatOneReads() throws {
    let path = TestFiles.temporaryDirectory() + "/log.jsonl"
    try TestFiles.write(Self.log(), to: path)
    let (one, oneSet) = try Self.read(path, jobs: 1)
    let (two, twoSet) = try Self.read(path, jobs: 2)
    #expect(one.devices == 9_000)
    #expect(two.devices == one.devices)
    #expect(two.clockOffsets == one.clockOffsets)
    #expect(one.clockOffsets.prefix(3) == [0, 3_600, 19_800])
    #expect(two.openSecondsOfDay == one.openSecondsOfDay)
    #expect(one.openSecondsOfDay.count == 45_000)
    #expect(two.opensPerDeviceDay == one.opensPerDeviceDay)
    #expect(two.openPositions == one.openPositions)
    #expect(twoSet.reader.records == oneSet.reader.records)
    #expect(twoSet.reader.lines == oneSet.reader.lines)
    #expect(twoSet.reader.unknownEvents == ["wave": 45])
    #expect(twoSet.reader.unknownEvents == oneSet.reader.unknownEvents)
    #expect(twoSet.reader.unknownFields == ["app_foreground.screen": 50])
    #expect(twoSet.skipped == oneSet.skipped)
  }

  @Test func theFirstBadLineIsTheErrorOnAnyThreads() throws {
    var lines = Self.log().split(separator: "\n").map(String.init)
    lines[40_001] = #"{"t":"soon","device":"a","event":"app_foreground"}"#
    lines[40_003] = "not json"
    let path = TestFiles.temporaryDirectory() + "/log.jsonl"
    try TestFiles.write(lines.joined(separator: "\n") + "\n", to: path)
    for jobs in [1, 2, 3] {
      var set = FieldLogSet(refreshIntervalSeconds: 900, lowBattery: 0.2, holdout: 0)
      do {
        try set.read([path], jobs: jobs)
        Issue.record("no error with \(jobs) threads")
      } catch {
        #expect(error.line == 40_002, "\(jobs) threads: \(error)")
        #expect(error.message.contains("\"t\": expected an ISO-8601 time"), "\(error)")
      }
    }
  }
}
