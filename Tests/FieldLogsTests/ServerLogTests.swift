import FieldLogs
import TestSupport
import Testing
import WidgetModel

/// The server's send log: read by column name, and matched to what the app saw arrive (a delivery is of the
/// last send before it; a send replaced before delivery is a lower bound at the next send).
@Suite struct ServerLogTests {
  func read(_ text: String) throws -> ([FieldLogEntry], ServerLogReader) {
    let path = TestFiles.temporaryDirectory() + "/server.csv"
    try TestFiles.write(text, to: path)
    var reader = ServerLogReader()
    var entries: [FieldLogEntry] = []
    try reader.read(path: path) { entry, _ in entries.append(entry) }
    return (entries, reader)
  }

  @Test func readsColumnsByNameAndSkipsWhatItDoesNotUse() throws {
    let (entries, reader) = try read(
      "\u{FEFF}push,region,device,t\r\nbackground,eu,a,2026-01-05T07:00:00Z\r\n\r\n"
        + "widgets,eu,\"b,1\",2026-01-05T08:00:00.5+01:00\nalert,eu,a,2026-01-05T07:00:00Z\nsilent,eu,a,"
        + "2026-01-05T07:10:00Z")
    #expect(entries.count == 3)
    #expect(entries[0].event == .serverSent(push: .silent, priority: nil))
    #expect(entries[1].device == "b,1")
    #expect(entries[1].event == .serverSent(push: .widget, priority: nil))
    #expect(entries[1].time.utcMicroseconds - entries[0].time.utcMicroseconds == 500_000)
    #expect(reader.skippedPushes == ["alert": 1])
    #expect(reader.unknownColumns == ["region"])
    #expect(reader.records == 3)
  }

  /// A phone opened at 09:00 and, past a few more opens, sent silent pushes: the first is replaced by the
  /// second 100 s later, the second arrives 50 s after it; a third arrives exactly an hour after the second
  /// (held by the cap: its delay is not the system's own); a fourth is never delivered.
  @Test func matchesSendsToDeliveries() throws {
    var observations = FieldObservations(refreshIntervalSeconds: 900, lowBattery: 0.2, dormantAfterSeconds: 86_400 * 3)
    let start = try #require(FieldLogTime(text: "2026-01-05T09:00:00Z")).utcMicroseconds
    func at(_ seconds: Double) -> FieldLogTime {
      FieldLogTime(utcMicroseconds: start + Int64(seconds * 1e6), offsetSeconds: 0)
    }
    var entries: [FieldLogEntry] = []
    for open in stride(from: 0.0, to: 50_000, by: 10_000) {
      entries.append(FieldLogEntry(time: at(open), device: "a", event: .appForeground(fromWidget: false)))
      entries.append(FieldLogEntry(time: at(open + 60), device: "a", event: .appBackground))
    }
    entries += [
      FieldLogEntry(time: at(1_100), device: "a", event: .delivered(.silent)),
      FieldLogEntry(time: at(4_700), device: "a", event: .delivered(.silent)),
      FieldLogEntry(time: at(60_000), device: "a", event: .battery(level: 0.5, lowPower: false, charging: false)),
    ]
    let sends = [950.0, 1_050, 4_000, 5_000].map {
      FieldLogEntry(time: at($0), device: "a", event: .serverSent(push: .silent, priority: 5))
    }
    for entry in entries.sorted(by: { $0.time < $1.time }) { #expect(observations.add(entry) == nil) }
    for send in sends { #expect(observations.add(send) == nil) }
    let deliveries = observations.finish().silentPushDeliveries
    #expect(deliveries.sentCount == 4)
    #expect(deliveries.deliveredCount == 2)
    #expect(deliveries.unmatched == 0)
    // 950 s replaced at 1,050 s: a lower bound of 100 s. 1,050 s delivered at 1,100 s: 50 s exact. 4,000 s
    // delivered at 4,700 s, exactly an hour after the one before: held, left out. 5,000 s, the send log's
    // last row: what came after it is not known, so it gives nothing.
    let exact = deliveries.fitting.filter(\.exact).map(\.seconds)
    let bounds = deliveries.fitting.filter { !$0.exact }.map(\.seconds)
    #expect(exact == [50])
    #expect(bounds == [100])
    #expect(deliveries.allDelays == [50, 700])
  }

  /// A phone's log that ends at a push's arrival: the send after its last other record is used or not
  /// whether it arrived or was lost (were the log's end its last record, only the arrived one would be used,
  /// and the loss read low). Two phones alike but for the fate of that send.
  @Test func whetherASendCountsDoesNotDependOnItsArrival() throws {
    var observations = FieldObservations(refreshIntervalSeconds: 900, lowBattery: 0.2, dormantAfterSeconds: 86_400 * 3)
    let start = try #require(FieldLogTime(text: "2026-01-05T09:00:00Z")).utcMicroseconds
    func entry(_ seconds: Double, _ device: String, _ event: FieldLogEvent) -> FieldLogEntry {
      FieldLogEntry(
        time: FieldLogTime(utcMicroseconds: start + Int64(seconds * 1e6), offsetSeconds: 0), device: device,
        event: event)
    }
    for device in ["arrived", "lost"] {
      let records: [(Double, FieldLogEvent)] = [
        (0, .appForeground(fromWidget: false)), (60, .appBackground), (1_040, .delivered(.silent)),
        (3_600, .battery(level: 0.5, lowPower: false, charging: false)),
      ]
      for (seconds, event) in records + (device == "arrived" ? [(5_050, .delivered(.silent))] : []) {
        #expect(observations.add(entry(seconds, device, event)) == nil)
      }
      for send in [1_000.0, 5_000, 9_000] {
        #expect(observations.add(entry(send, device, .serverSent(push: .silent, priority: 5))) == nil)
      }
    }
    #expect(observations.sendsOutsideAppLogs == 4)
    let deliveries = observations.finish().silentPushDeliveries
    #expect(deliveries.sentCount == 2)
    #expect(deliveries.deliveredCount == 2)
    #expect(deliveries.unmatched == 0)
    #expect(deliveries.fitting.map(\.seconds) == [40, 40])
  }
}
