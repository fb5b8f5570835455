import Reports

extension RunCharts {
  /// `app_wakes.csv`: every chance the app had to run, per device and day, by hour, channel and outcome.
  func appWakes(_ table: CSVTable) throws(CSVTable.ReadError) -> Chart {
    let channel = try table.column("channel")
    let outcome = try table.column("outcome")
    let reason = try table.column("reason")
    let (replications, days) = span(table)
    let sums = try RunCharts.countsByHour(table) { row in
      "\(row[channel]) \(row[outcome])" + (row[reason].isEmpty ? "" : " (\(row[reason]))")
    }
    let (spec, marks) = RunCharts.stackedByHour(
      sums, scale: replications * days * devices, layer: "wakes", category: "channel and outcome", measure: "wakes",
      title: "chances for the app to run per device per day")
    return Chart(
      id: "app-wakes", title: "The app's runs by hour of day, channel and outcome",
      caption: "Every chance the app had to run (an open, an audio session, a background refresh the system "
        + "considered, a silent push sent) in the hour it arose, by channel and outcome; mean per device and day "
        + "over \(Int(days)) days x \(replicationsText).",
      spec: spec, marks: [("wakes", marks)])
  }
}
