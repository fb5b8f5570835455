import Reports

/// The busiest second of a fleet's server load, from `server_peak.csv` and `summary.csv`: what the servers
/// receive per second by source around it (stacked), and what they send (a line, never added to it), which
/// the per-minute chart averages away. The title gives the statistic the console gives.
extension RunCharts {
  func serverPeak() throws(CSVTable.ReadError) -> Chart? {
    // Run folders written before server_peak.csv existed have no such file; single devices have no rows.
    guard let table = try optionalTable("server_peak.csv"), !table.rows.isEmpty else { return nil }
    guard let seconds = try RunCharts.peakSeconds(table) else { return nil }
    let sends = seconds.sentPeak > 0
    let spec = VegaLite.unit(values: seconds.received, layers: RunCharts.serverPeakLayers(seconds, sends: sends))
    let caption = serverPeakCaption(busiest: seconds.busiest, sends: sends)
    var marks = [("received", seconds.sources.count)]
    if sends { marks.append(("sent", 1)) }
    return Chart(
      id: "server-peak", title: "Busiest second received: \(seconds.busiestTitle)", caption: caption,
      spec: spec, marks: marks)
  }

  /// The seconds around the first replication's busiest one, as the chart draws them.
  struct PeakSeconds {
    /// Requests received per second and source: every second of the window for every source in ``sources``,
    /// 0 where it had none (a second left out would be drawn as a straight line across it).
    var received: [JSONValue] = []
    /// Requests sent per second.
    var sent: [JSONValue] = []
    /// The sources with a request in the window (one legend entry and one mark each).
    var sources: Set<String> = []
    /// Which second is the busiest and when, as the caption says it.
    var busiest = "no requests"
    /// The charted second's figure and when, as the title says it: the caption's figure, not another.
    var busiestTitle = "no requests"
    /// The most requests sent in one second of the window.
    var sentPeak = 0.0
  }

  /// The first replication's rows of `server_peak.csv` as chart data; nil for a folder from before `received`
  /// and `sent`, which kept a `total` that added both: no chart rather than that.
  static func peakSeconds(_ table: CSVTable) throws(CSVTable.ReadError) -> PeakSeconds? {
    let replication = try table.column("replication")
    let offset = try table.column("seconds_from_peak")
    guard let receivedColumn = try? table.column("received"), let sentColumn = try? table.column("sent") else {
      return nil
    }
    let timeColumn = try table.column("time")
    let dayColumn = try table.column("day")
    let streams = try ServerPeakReport.receivedStreamNames.map { name throws(CSVTable.ReadError) in
      (name, try table.column(name))
    }
    let first = table.rows.first?[replication]
    var seconds = PeakSeconds()
    var counts: [(second: Int, values: [Double])] = []
    for row in table.rows where row[replication] == first {
      guard let x = Int(row[offset]) else { continue }
      if x == 0, let total = CSVTable.number(row[receivedColumn]) {
        seconds.busiest =
          "replication \(first ?? "0")'s busiest second received, \(HTMLText.number(total, decimals: 0)) "
          + "requests/s on day \(row[dayColumn]) at \(row[timeColumn]) UTC (the run's largest unless the run "
          + "wrote every replication's rows)"
        seconds.busiestTitle =
          "\(HTMLText.number(total, decimals: 0)) requests/s, replication \(first ?? "0"), day \(row[dayColumn]) at "
          + "\(row[timeColumn]) UTC"
      }
      let values = streams.map { CSVTable.number(row[$0.1]) ?? 0 }
      for (index, value) in values.enumerated() where value > 0 { seconds.sources.insert(streams[index].0) }
      counts.append((x, values))
      if let sent = CSVTable.number(row[sentColumn]) {
        seconds.sentPeak = max(seconds.sentPeak, sent)
        seconds.sent.append(VegaLite.row([("second", .integer(x)), ("sent", .number(sent))]))
      }
    }
    for (second, values) in counts {
      for (index, value) in values.enumerated() where seconds.sources.contains(streams[index].0) {
        seconds.received.append(
          VegaLite.row([
            ("second", .integer(second)), ("source", .string(streams[index].0)), ("requests", .number(value)),
          ]))
      }
    }
    return seconds
  }

  /// What the servers receive, stacked by source, and when they send anything a dashed line of what they
  /// send: a line, never added to what they receive.
  static func serverPeakLayers(_ seconds: PeakSeconds, sends: Bool) -> [JSONValue] {
    let x = VegaLite.field("second", "quantitative", title: "seconds from the busiest second received")
    var layers = [
      VegaLite.layer(
        "received", mark: VegaLite.mark("area"),
        encoding: [
          ("x", x), ("y", VegaLite.field("requests", "quantitative", title: "requests per second (whole fleet)")),
          ("color", VegaLite.field("source", "nominal", title: "received, by source")),
        ])
    ]
    if sends {
      let dashed: [(String, JSONValue)] = [
        ("color", .string("#444444")), ("strokeDash", .array([.integer(4), .integer(3)])),
      ]
      let y = VegaLite.field("sent", "quantitative", title: "requests per second (whole fleet)")
      layers.append(
        VegaLite.layer(
          "sent", mark: VegaLite.mark("line", dashed), encoding: [("x", x), ("y", y)], values: seconds.sent))
    }
    return layers
  }

  /// The caption: what the chart shows around `busiest`, the busiest second sent when the servers send, and
  /// how the title's figure is computed.
  func serverPeakCaption(busiest: String, sends: Bool) -> String {
    var caption =
      "What the servers receive per UTC second (widget and app fetches, token registrations), stacked by source, "
      + "five minutes either side of \(busiest); scaled to the real fleet. "
    if sends {
      caption +=
        "The dashed line is what they send (pushes to APNs, broadcast requests), never added to what they "
        + "receive; their own busiest second: \(peakStatistic("sent")). "
    }
    caption +=
      "The title's figure is the second charted, as the simulated phones made it and scaled to the fleet. The "
      + "console and summary.csv (peak_requests_per_second) give another: "
      + "\(peakStatistic("received")), a sampled fleet's estimated from the sample, so the two may differ."
    return caption
  }

  /// `mean [low, high] requests/s (mean over N replications of each one's busiest second)` from summary.csv.
  func peakStatistic(_ direction: String) -> String {
    guard let table = try? table("summary.csv"), let metric = try? table.column("metric"),
      let widget = try? table.column("widget"), let mean = try? table.column("mean"),
      let low = try? table.column("ci95_low"), let high = try? table.column("ci95_high"),
      let count = try? table.column("replications"),
      let row = table.rows.first(where: { $0[metric] == "peak_requests_per_second" && $0[widget] == direction }),
      let value = CSVTable.number(row[mean])
    else { return "not in summary.csv" }
    var text = "\(HTMLText.number(value, decimals: 0))"
    if let low = CSVTable.number(row[low]), let high = CSVTable.number(row[high]) {
      text += " [\(HTMLText.number(low, decimals: 0)), \(HTMLText.number(high, decimals: 0))]"
    }
    let replications = row[count]
    return text + " requests/s, the mean over \(replications) replication\(replications == "1" ? "" : "s") of each "
      + "one's busiest second"
  }
}
