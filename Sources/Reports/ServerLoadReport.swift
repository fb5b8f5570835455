import WidgetModel

/// `server_load.csv`: what the app's servers see per UTC minute, scaled to the real fleet.
enum ServerLoadReport: RunReport {
  static let file = "server_load.csv"
  static let header =
    "replication,minute,day,time,fetch_requests,fetch_bytes,pushes_sent,pushes_delivered,"
    + ServerSource.allCases.map(\.name).joined(separator: ",") + "\n"

  static func rows(_ result: ReplicationResult, subjects: RunSummary.Subjects) -> String {
    let scale = subjects.serverScale
    let load = result.serverLoad
    let fetches = load.fetches
    let pushesSent = load.pushesSent(scale: scale)
    var text = ""
    for slot in 0..<load.minuteCount {
      let minute = slot + ServerLoad.firstMinute
      let day = minute >= 0 ? minute / 1_440 : (minute - 1_439) / 1_440
      let clock = minute - day * 1_440
      let hours = clock / 60
      let minutes = clock % 60
      let time = "\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
      var cells = [
        "\(result.replication)", "\(minute)", "\(day)", time,
        CSVFormat.number(Double(fetches[slot]) * scale, decimals: 2),
        CSVFormat.number(Double(load.bytes[slot]) * scale, decimals: 0),
        CSVFormat.number(pushesSent[slot], decimals: 2),
        CSVFormat.number(Double(load.pushesDelivered[slot]) * scale, decimals: 2),
      ]
      for source in ServerSource.allCases {
        let factor = source.isFleetWide ? 1 : scale
        cells.append(CSVFormat.number(Double(load.requests(slot: slot, source: source)) * factor, decimals: 2))
      }
      text += cells.joined(separator: ",") + "\n"
    }
    return text
  }
}
