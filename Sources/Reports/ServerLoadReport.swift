import SimulationEngine
import WidgetModel

/// `server_load.csv`: what the app's servers see per UTC minute, scaled to the real fleet (the mean over
/// replications unless `--detail`).
enum ServerLoadReport: RunReport {
  static let file = "server_load.csv"
  static let columns =
    "minute,day,time,fetch_requests,fetch_bytes,pushes_sent,pushes_delivered,"
    + ServerSource.allCases.map(\.name).joined(separator: ",") + "\n"

  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String {
    let scale = scope.subjects.serverScale * scope.perReplication
    let load = result.serverLoad
    let fetches = load.fetches
    let pushesSent = load.pushesSent(scale: scope.subjects.serverScale).map { $0 * scope.perReplication }
    var text = ""
    for slot in 0..<load.minuteCount {
      let minute = slot + ServerLoad.firstMinute
      let day = minute >= 0 ? minute / 1_440 : (minute - 1_439) / 1_440
      let clock = minute - day * 1_440
      let hours = clock / 60
      let minutes = clock % 60
      let time = "\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
      var cells = [
        "\(minute)", "\(day)", time,
        CSVFormat.number(Double(fetches[slot]) * scale, decimals: scope.decimals(2)),
        CSVFormat.number(load.bytes[slot].double * scale, decimals: scope.decimals(0)),
        CSVFormat.number(pushesSent[slot], decimals: scope.decimals(2)),
        CSVFormat.number(Double(load.pushesDelivered[slot]) * scale, decimals: scope.decimals(2)),
      ]
      for source in ServerSource.allCases {
        let factor = source.isFleetWide ? scope.perReplication : scale
        cells.append(
          CSVFormat.number(Double(load.requests(slot: slot, source: source)) * factor, decimals: scope.decimals(2)))
      }
      text += scope.lead + cells.joined(separator: ",") + "\n"
    }
    return text
  }
}
