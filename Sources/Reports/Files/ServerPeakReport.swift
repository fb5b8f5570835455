import Results
import WidgetModel

/// `server_peak.csv`: for fleets, the requests per UTC second around the busiest second of what the servers
/// receive (five minutes either side), by stream, scaled to the real fleet: the burst a per-minute count
/// averages away. `received` and `sent` add each side's streams; no column adds both. When each simulated
/// phone stands for several, the stream columns are the whole fleet's expected requests in that second as
/// fitted from the sample (``ServerSecondsSummary/estimatedRequests(second:source:)``), `fetch_bytes` the
/// fitted bytes alike, and `raw_received`, `raw_sent`, `raw_fetch_bytes` the sample's own counts times the
/// scale.
/// Every replication's with `--detail`; by default the replication with the busiest second of all (a mean
/// over replications would smear the peaks), so the `replication` column is always there.
public enum ServerPeakReport: RunReport {
  public static let file = "server_peak.csv"
  public static let header = "replication," + columns
  static let columns =
    "second,day,time,seconds_from_peak,received,sent,"
    + ServerStream.partition.map(\.name).joined(separator: ",")
    + ",fetch_bytes,utc,raw_received,raw_sent,raw_fetch_bytes\n"
  /// Seconds shown either side of the peak.
  static let window = 300

  static func header(detail: Bool) -> String { header }

  /// The rows of one replication's result as a run's sum keeps them (``RunTotal``): the replication is its own.
  static func rows(_ result: ReplicationResult, subjects: RunSummary.Subjects) -> String {
    rows(result, .replication(result.replication, subjects: subjects))
  }

  /// The rows of one replication's result (`scope` gives the subjects; the replication is the result's).
  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String {
    let seconds = result.serverLoad.seconds
    guard !seconds.isEmpty, let received = result.provisioning.first else { return "" }
    let scale = scope.subjects.serverScale
    let peak = received.peakSecond
    let first = Swift.max(0, peak - window)
    let last = Swift.min(seconds.secondCount - 1, peak + window)
    var text = ""
    for second in first...last {
      let day = second / 86_400
      let clock = second % 86_400
      let time = ClockText.seconds(clock)
      let utc = ClockText.utc(scope.subjects.startDate, day: day, secondOfDay: clock)
      var sums = [0.0, 0.0]
      var raw = [0.0, 0.0]
      var cells: [String] = []
      for stream in ServerStream.partition {
        let counted = Double(seconds.requests(second: second, stream: stream)) * (stream.isFleetWide ? 1 : scale)
        let value = result.perSecond.estimatedRequests(second: second, source: stream.sources[0]) ?? counted
        sums[stream.sources[0].isPush ? 1 : 0] += value
        raw[stream.sources[0].isPush ? 1 : 0] += counted
        cells.append(CSVFormat.number(value, decimals: 2))
      }
      let bytes =
        scale
        * Double(
          seconds.bytes(second: second, stream: .source(.widgetFetch))
            + seconds.bytes(second: second, stream: .appFetch))
      let row =
        [
          "\(result.replication)", "\(second)", "\(day)", time, "\(second - peak)",
          CSVFormat.number(sums[0], decimals: 2), CSVFormat.number(sums[1], decimals: 2),
        ]
        + cells
        + [
          CSVFormat.number(result.perSecond.estimatedBytes(second: second) ?? bytes, decimals: 0), utc,
          CSVFormat.number(raw[0], decimals: 2), CSVFormat.number(raw[1], decimals: 2),
          CSVFormat.number(bytes, decimals: 0),
        ]
      text += row.joined(separator: ",") + "\n"
    }
    return text
  }

  /// The stream columns of what the servers receive (fetches, token registrations), in order.
  public static let receivedStreamNames = ServerStream.partition.filter { !$0.sources[0].isPush }.map(\.name)
}
