import Reports

/// The busiest second of a fleet's server load, from `server_peak.csv`: requests per second by stream
/// around it, which the per-minute chart averages away.
extension RunCharts {
  func serverPeak() throws(CSVTable.ReadError) -> Chart? {
    // Run folders written before server_peak.csv existed have no such file; single devices have no rows.
    guard let table = try? table("server_peak.csv"), !table.rows.isEmpty else { return nil }
    let replication = try table.column("replication")
    let offset = try table.column("seconds_from_peak")
    let totalColumn = try table.column("total")
    let timeColumn = try table.column("time")
    let dayColumn = try table.column("day")
    let streams = try ServerPeakReport.streamNames.map { name throws(CSVTable.ReadError) in
      (name, try table.column(name))
    }
    let first = table.rows.first?[replication]
    var values: [JSONValue] = []
    var drawn: Set<String> = []
    var peakText = "no requests"
    for row in table.rows where row[replication] == first {
      guard let x = Int(row[offset]) else { continue }
      if x == 0, let total = CSVTable.number(row[totalColumn]) {
        peakText =
          "peak \(HTMLText.number(total, decimals: 0)) requests/s on day \(row[dayColumn]) at \(row[timeColumn]) UTC"
      }
      for (name, column) in streams {
        guard let value = CSVTable.number(row[column]), value > 0 else { continue }
        drawn.insert(name)
        values.append(
          VegaLite.row([("second", .integer(x)), ("stream", .string(name)), ("requests", .number(value))]))
      }
    }
    let spec = VegaLite.unit(
      values: values,
      layers: [
        VegaLite.layer(
          "streams", mark: VegaLite.mark("area"),
          encoding: [
            ("x", VegaLite.field("second", "quantitative", title: "seconds from the busiest second")),
            ("y", VegaLite.field("requests", "quantitative", title: "requests per second (whole fleet)")),
            ("color", VegaLite.field("stream", "nominal", title: "stream")),
          ])
      ])
    return Chart(
      id: "server-peak", title: "Busiest second: \(peakText)",
      caption: "Requests per UTC second by stream, five minutes either side of the busiest second of replication "
        + "\(first ?? "0"), stacked, scaled to the real fleet: what the servers must absorb, which the per-minute "
        + "chart averages away.",
      spec: spec, marks: [("streams", drawn.count)])
  }
}
