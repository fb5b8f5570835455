import Reports
import ScenarioFiles
import SimulationEngine

/// The reports of a finished sweep, built from every task's values.
public enum SweepReports {
  public static let files = ["sweep.csv", "sweep_summary.csv"]

  /// The point columns of the reports: each swept key as written, then each key whose values are all
  /// durations or sizes again in base units (`<key>_s`, `<key>_bytes`), so points sort and plot by number.
  static func pointColumns(
    points: [(index: Int, values: [String])], keys: [String]
  ) -> (header: String, cells: [Int: String]) {
    let quantities = keys.indices.map { key in SweptQuantity.of(points.map { $0.values[key] }) }
    var header = keys.map { CSVFormat.text($0) }
    for (key, quantity) in zip(keys, quantities) {
      if let quantity { header.append(CSVFormat.text(key + quantity.columnSuffix)) }
    }
    var cells: [Int: String] = [:]
    for point in points {
      var row = point.values.map(CSVFormat.text)
      for (value, quantity) in zip(point.values, quantities) {
        if let quantity {
          row.append(CSVFormat.trimmed(CSVFormat.number(quantity.baseUnits(value) ?? .nan, decimals: 6)))
        }
      }
      cells[point.index] = row.joined(separator: ",")
    }
    return (header.joined(separator: ","), cells)
  }

  /// `sweep.csv`, `sweep_summary.csv` and, with a baseline point, `sweep_baseline.csv`, written atomically.
  /// Returns the summary's rows (for the console's headline figures).
  @discardableResult
  public static func write(
    points: [(index: Int, values: [String])], keys: [String], tasks: [(point: Int, replication: Int)],
    values: [Int: [MetricValue]], baseline: Int?, to directory: String
  ) throws(AtomicFile.WriteError) -> [SweepSummaryRow] {
    let (keyHeader, pointCells) = pointColumns(points: points, keys: keys)
    var rows: [SweepSummaryRow] = []

    var sweep = "point,\(keyHeader),replication,metric,widget,value,unit\n"
    // Per point and (metric, widget): the values in replication order.
    var series: [Int: [String: (unit: String, values: [Int: Double])]] = [:]
    var order: [Int: [String]] = [:]
    for (task, (point, replication)) in tasks.enumerated() {
      for value in values[task] ?? [] {
        sweep += "\(point),\(pointCells[point] ?? ""),\(replication),\(value.metric),\(CSVFormat.text(value.widget)),"
        sweep += "\(CSVFormat.number(value.value, decimals: 6)),\(value.unit)\n"
        let key = "\(value.metric)\u{1F}\(value.widget)"
        if series[point]?[key] == nil {
          series[point, default: [:]][key] = (value.unit, [:])
          order[point, default: []].append(key)
        }
        series[point]?[key]?.values[replication] = value.value
      }
    }
    try AtomicFile.write(sweep, to: "\(directory)/sweep.csv")

    var summary = "point,\(keyHeader),metric,widget,mean,ci95_low,ci95_high,replications,unit,ci_method\n"
    for point in points.map(\.index) {
      for key in order[point] ?? [] {
        guard let entry = series[point]?[key] else { continue }
        let statistics = RunningStatistics(
          entry.values.keys.sorted().compactMap { entry.values[$0] }.filter { !$0.isNaN })
        let parts = key.split(separator: "\u{1F}", omittingEmptySubsequences: false)
        // Within the metric's range, as summary.csv's (a fraction's interval stays inside [0, 1]).
        let interval = RunSummary.interval(of: statistics, metric: String(parts[0]), unit: entry.unit)
        rows.append(
          SweepSummaryRow(
            point: point, metric: String(parts[0]), widget: String(parts[1]),
            mean: statistics.count > 0 ? statistics.mean : .nan, interval: interval.map { ($0.low, $0.high) },
            unit: entry.unit))
        summary += "\(point),\(pointCells[point] ?? ""),\(parts[0]),\(CSVFormat.text(String(parts[1]))),"
        summary += "\(CSVFormat.number(statistics.count > 0 ? statistics.mean : .nan)),"
        summary += "\(CSVFormat.number(interval?.low ?? .nan)),\(CSVFormat.number(interval?.high ?? .nan)),"
        summary += "\(statistics.count),\(entry.unit),\(interval?.method.rawValue ?? "none")\n"
      }
    }
    try AtomicFile.write(summary, to: "\(directory)/sweep_summary.csv")
    AtomicFile.remove("\(directory)/report.html")  // made from the old reports: `--report` writes it anew

    guard let baseline, let reference = series[baseline] else { return rows }
    var paired = "point,\(keyHeader),metric,widget,difference_mean,ci95_low,ci95_high,replications,unit\n"
    for point in points.map(\.index) where point != baseline {
      for key in order[point] ?? [] {
        guard let entry = series[point]?[key], let base = reference[key] else { continue }
        // Paired by replication: with common random numbers replication r saw the same user at both points.
        let differences = entry.values.keys.sorted().compactMap { replication -> Double? in
          guard let value = entry.values[replication], let other = base.values[replication] else { return nil }
          let difference = value - other
          return difference.isNaN ? nil : difference
        }
        let statistics = RunningStatistics(differences)
        let interval = ConfidenceInterval(statistics)
        let parts = key.split(separator: "\u{1F}", omittingEmptySubsequences: false)
        paired += "\(point),\(pointCells[point] ?? ""),\(parts[0]),\(CSVFormat.text(String(parts[1]))),"
        paired += "\(CSVFormat.number(statistics.count > 0 ? statistics.mean : .nan)),"
        paired += "\(CSVFormat.number(interval?.low ?? .nan)),\(CSVFormat.number(interval?.high ?? .nan)),"
        paired += "\(statistics.count),\(entry.unit)\n"
      }
    }
    try AtomicFile.write(paired, to: "\(directory)/sweep_baseline.csv")
    return rows
  }
}
