import Reports
import Testing

@testable import HTMLReport

@Suite("The busiest-second chart")
struct ServerPeakChartTests {
  @Test("draws every second of the window, 0 where a source had no request: no straight line across a gap")
  func zeroSecondsKept() throws {
    let header = ServerPeakReport.header.dropLast().split(separator: ",").map(String.init)
    // widget_fetch at -3 and +3 only, app_fetch_foreground at 0 only; nothing in between.
    let fetches: [Int: String] = [-3: "40", 3: "60"]
    let rows = (-3...3).map { offset in
      header.map { column -> String in
        switch column {
        case "replication": "0"
        case "second": "\(1_000 + offset)"
        case "day": "0"
        case "time": "00:16:40"
        case "seconds_from_peak": "\(offset)"
        case "widget_fetch": fetches[offset] ?? "0.00"
        case "app_fetch_foreground": offset == 0 ? "5" : "0.00"
        case "received": "\((Double(fetches[offset] ?? "0") ?? 0) + (offset == 0 ? 5 : 0))"
        case "utc": "2026-01-05T00:16:40Z"
        default: "0"
        }
      }
    }
    let table = CSVTable(path: "server_peak.csv", header: header, rows: rows)
    let seconds = try #require(try RunCharts.peakSeconds(table))
    #expect(seconds.sources == ["widget_fetch", "app_fetch_foreground"])
    func drawn(_ source: String) -> [Int: Double] {
      var values: [Int: Double] = [:]
      for case .object(let members) in seconds.received
      where members.contains(where: { $0.0 == "source" && $0.1 == .string(source) }) {
        guard case .integer(let second)? = members.first(where: { $0.0 == "second" })?.1,
          case .number(let requests)? = members.first(where: { $0.0 == "requests" })?.1
        else { continue }
        values[second] = requests
      }
      return values
    }
    #expect(drawn("widget_fetch") == [-3: 40, -2: 0, -1: 0, 0: 0, 1: 0, 2: 0, 3: 60])
    #expect(drawn("app_fetch_foreground") == [-3: 0, -2: 0, -1: 0, 0: 5, 1: 0, 2: 0, 3: 0])
  }
}
