import FieldLogs
import Testing

/// Which policy latenesses count: only those whose date the person was seen awake around, an open of the
/// same waking day at or before the date and the lateness a lower bound at that day's last open. The
/// phones' waking window (the latest and earliest opens of any day) does not say they were awake on a
/// given evening.
@Suite struct LatenessWindowTests {
  /// Two phones opened at 08:00, 12:00 and 22:00 on the first day (a waking window of 08:00-22:00) and at
  /// 08:00, 12:00 and 19:00 on the second, when the widget's 19:00 reload asks for 20:00. Phone `early`
  /// goes to bed at 19:30: the reload waits for the morning (07:00), read as 11 hours late. Were it a lower
  /// bound at the window's end, it would say the lateness passed 2 hours, which the system never drew; it is
  /// left out. Phone `late` is reloaded at 20:05 and opened again at 21:30: 300 s exact, and the 21:30 open's
  /// reload a lower bound of 1,499 s.
  @Test func aDeferredReloadAfterTheDaysLastOpenIsLeftOut() throws {
    var observations = FieldObservations(refreshIntervalSeconds: 3_600, lowBattery: 0.2)
    let start = try #require(FieldLogTime(text: "2026-01-05T00:00:00Z")).utcMicroseconds
    func at(_ hours: Double) -> FieldLogTime {
      FieldLogTime(utcMicroseconds: start + Int64((hours * 3_600).rounded() * 1e6), offsetSeconds: 0)
    }
    func timeline(_ hours: Double, next: Double) -> FieldLogEvent {
      .timeline(kind: "Scores", family: "systemSmall", policy: "after", next: at(next), entries: 1)
    }
    let second = 1 / 3_600.0
    for (device, laterOpens) in [("early", [Double]()), ("late", [45.5])] {
      var records: [(Double, FieldLogEvent)] = [(0, .battery(level: 0.9, lowPower: false, charging: false))]
      for open in [8.0, 12, 22, 32, 36, 43] + laterOpens {
        records += [(open, .appForeground(fromWidget: false)), (open + 60 * second, .appBackground)]
      }
      records += [(43 + second / 2, .reloadCall(kind: nil)), (43 + second, timeline(43 + second, next: 44 + second))]
      records +=
        device == "early"
        ? [(55, timeline(55, next: 56))]
        : [
          (44 + second + 300 * second, timeline(44 + 301 * second, next: 45 + 301 * second)),
          (45.5 + second / 2, .reloadCall(kind: nil)), (45.5 + second, timeline(45.5 + second, next: 46.5 + second)),
        ]
      records.append((55.5, .battery(level: 0.9, lowPower: false, charging: true)))
      for (hours, event) in records.sorted(by: { $0.0 < $1.0 }) {
        #expect(observations.add(FieldLogEntry(time: at(hours), device: device, event: event)) == nil)
      }
    }
    let lateness = observations.finish().lateness.map { ($0.seconds.rounded(), $0.exact) }
    #expect(lateness.map(\.0) == [300, 1_499])
    #expect(lateness.map(\.1) == [true, false])
  }

  /// A phone opened at 08:00, 12:00, 20:00 and 22:00 (a waking window of 08:00-22:00) sleeps in the next
  /// morning until 08:45 and first opens the app at 09:00. A silent push at 07:10 has the app reload its
  /// widget, which asks for 08:10; the system waits for the wake-up and reloads at 08:45. Nothing the app saw
  /// came between, but nothing says the person was awake at 08:10 either: the 35 minutes are left out.
  @Test func aDateBeforeTheDaysFirstOpenIsLeftOut() throws {
    var observations = FieldObservations(refreshIntervalSeconds: 3_600, lowBattery: 0.2)
    let start = try #require(FieldLogTime(text: "2026-01-05T00:00:00Z")).utcMicroseconds
    func at(_ hours: Double) -> FieldLogTime {
      FieldLogTime(utcMicroseconds: start + Int64((hours * 3_600).rounded() * 1e6), offsetSeconds: 0)
    }
    func timeline(_ hours: Double) -> FieldLogEvent {
      .timeline(kind: "Scores", family: "systemSmall", policy: "after", next: at(hours + 1), entries: 1)
    }
    let second = 1 / 3_600.0
    var records: [(Double, FieldLogEvent)] = [(0, .battery(level: 0.9, lowPower: false, charging: false))]
    for open in [8.0, 12, 20, 22, 33] {
      records += [
        (open, .appForeground(fromWidget: false)), (open + second / 2, .reloadCall(kind: nil)),
        (open + second, timeline(open + second)), (open + 60 * second, .appBackground),
      ]
    }
    let push = 31 + 10 / 60.0
    records += [
      (push, .delivered(.silent)), (push + second / 2, .reloadCall(kind: nil)),
      (push + second, timeline(push + second)),
      (32.75, timeline(32.75)), (33.5, .battery(level: 0.9, lowPower: false, charging: false)),
    ]
    for (hours, event) in records.sorted(by: { $0.0 < $1.0 }) {
      #expect(observations.add(FieldLogEntry(time: at(hours), device: "sleepy", event: event)) == nil)
    }
    // What is left: the first day's opens reloading the widget before each policy reload ran (lower bounds
    // of 3 h, 7 h and 1 h), and no exact lateness.
    let lateness = observations.finish().lateness
    #expect(lateness.map { $0.seconds.rounded() } == [10_799, 25_199, 3_599])
    #expect(lateness.allSatisfy { !$0.exact })
  }
}
