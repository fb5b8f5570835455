import Results
import SimulationEngine
import WidgetModel

/// `server_load.csv`: what the app's servers see per UTC minute, scaled to the real fleet (the mean over
/// replications unless `--detail`), over the minutes the run's devices cover (``RunSummary/Subjects/utcMinutes``,
/// widened to any minute that saw a request), with the minute's ISO-8601 UTC timestamp.
enum ServerLoadReport: RunReport {
  static let file = "server_load.csv"
  static let columns =
    "minute,day,time,fetch_requests,fetch_bytes,pushes_sent,pushes_delivered,"
    + ServerSource.allCases.map(\.name).joined(separator: ",") + ",utc\n"

  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String {
    let scale = scope.subjects.serverScale * scope.perReplication
    let load = result.serverLoad
    precondition(!load.holdsKeptRequests, "server load rows of requests not in their minutes")
    let totals = load.minuteTotals()
    let fetches = totals.fetches
    let pushesSent = totals.pushesSent(scale: scope.subjects.serverScale).map { $0 * scope.perReplication }
    let rows = slots(load, scope.subjects.utcMinutes)
    var text = CSVBytes(capacity: rows.count * 160)
    let lead = scope.lead
    let sources = ServerSource.allCases
    for slot in rows {
      let minute = slot + ServerLoad.firstMinute
      let day = minute >= 0 ? minute / 1_440 : (minute - 1_439) / 1_440
      let clock = minute - day * 1_440
      text.append(lead)
      text.integer(minute)
      text.comma()
      text.integer(day)
      text.comma()
      text.minutes(clock)
      text.comma()
      text.number(Double(fetches[slot]) * scale, decimals: scope.decimals(2))
      text.comma()
      text.number(load.bytes[slot].double * scale, decimals: scope.decimals(0))
      text.comma()
      text.number(pushesSent[slot], decimals: scope.decimals(2))
      text.comma()
      text.number(Double(load.pushesDelivered[slot]) * scale, decimals: scope.decimals(2))
      for source in sources {
        let factor = source.isFleetWide ? scope.perReplication : scale
        text.comma()
        text.number(Double(load.requests(slot: slot, source: source)) * factor, decimals: scope.decimals(2))
      }
      text.comma()
      text.utc(scope.subjects.startDate, day: day, secondOfDay: clock * 60)
      text.newline()
    }
    return text.text
  }

  /// The slots of `minutes` (all of them when nil), widened to every slot that holds a request.
  static func slots(_ load: ServerLoad, _ minutes: Range<Int>?) -> Range<Int> {
    let all = 0..<load.minuteCount
    guard let minutes else { return all }
    var first = Swift.max(0, minutes.lowerBound - ServerLoad.firstMinute)
    var end = Swift.min(load.minuteCount, minutes.upperBound - ServerLoad.firstMinute)
    if let used = load.usedSlots {
      first = Swift.min(first, used.lowerBound)
      end = Swift.max(end, used.upperBound)
    }
    return first < end ? first..<end : all
  }
}
