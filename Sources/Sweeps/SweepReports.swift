import Reports
import Results
import ScenarioFiles
import SimulationEngine
import Statistics

/// The reports of a finished sweep, built from every task's values.
public enum SweepReports {
  public static let files = ["sweep.csv", "sweep_summary.csv", SweepComparison.file]

  /// The point columns of the reports after `point`: its label (empty without one), each swept key as
  /// written, then each key whose values are all durations or sizes again in base units (`<key>_s`,
  /// `<key>_bytes`), so points sort and plot by number.
  static func pointColumns(
    points: [SweepPointRow], keys: [String]
  ) -> (header: String, cells: [Int: String]) {
    let quantities = keys.indices.map { key in SweptQuantity.of(points.map { $0.values[key] }) }
    var header = ["point_label"] + keys.map { CSVFormat.text($0) }
    for (key, quantity) in zip(keys, quantities) {
      if let quantity { header.append(CSVFormat.text(key + quantity.columnSuffix)) }
    }
    var cells: [Int: String] = [:]
    for point in points {
      var row = [CSVFormat.text(point.label)] + point.values.map(CSVFormat.text)
      for (value, quantity) in zip(point.values, quantities) {
        if let quantity {
          row.append(CSVFormat.trimmed(CSVFormat.number(quantity.baseUnits(value) ?? .nan, decimals: 6)))
        }
      }
      cells[point.index] = row.joined(separator: ",")
    }
    return (header.joined(separator: ","), cells)
  }

  /// `sweep.csv`, `sweep_summary.csv`, `sweep_compare.md` and, with a baseline point, `sweep_baseline.csv`,
  /// committed as one set. Returns the summary's rows (for the console's headline figures).
  @discardableResult
  public static func write(
    points: [SweepPointRow], keys: [String], tasks: [(point: Int, replication: Int)],
    values: [Int: [MetricValue]], baseline: Int?, to directory: String
  ) throws(AtomicFile.WriteError) -> [SweepSummaryRow] {
    let set = ReportSet(directory: directory)
    let rows = try write(points: points, keys: keys, tasks: tasks, values: values, baseline: baseline, into: set)
    try set.commit()
    return rows
  }

  /// Adds the reports of ``write(points:keys:tasks:values:baseline:to:)`` to `set`, which the caller commits
  /// (with a manifest, for a merge); an earlier sweep_baseline.csv that this one does not replace is removed.
  public static func write(
    points: [SweepPointRow], keys: [String], tasks: [(point: Int, replication: Int)],
    values: [Int: [MetricValue]], baseline: Int?, into set: ReportSet
  ) throws(AtomicFile.WriteError) -> [SweepSummaryRow] {
    let (keyHeader, pointCells) = pointColumns(points: points, keys: keys)
    let (sweep, table) = sweepRows(keyHeader: keyHeader, pointCells: pointCells, tasks: tasks, values: values)
    try set.write(bytes: sweep.bytes, to: "sweep.csv")
    let (summary, rows) = summaryRows(keyHeader: keyHeader, pointCells: pointCells, points: points, table: table)
    try set.write(summary, to: "sweep_summary.csv")
    try set.write(SweepComparison.markdown(rows: rows, points: points, keys: keys), to: SweepComparison.file)
    set.remove("report.html")  // made from the old reports: `--report` writes it anew

    guard let baseline,
      let paired = baselineRows(
        keyHeader: keyHeader, pointCells: pointCells, points: points, table: table, baseline: baseline)
    else {
      set.remove("sweep_baseline.csv")  // an earlier one would pair other figures
      return rows
    }
    try set.write(paired, to: "sweep_baseline.csv")
    return rows
  }

  /// `sweep.csv`, one row per task's value, and the same values gathered per point into its series.
  private static func sweepRows(
    keyHeader: String, pointCells: [Int: String], tasks: [(point: Int, replication: Int)],
    values: [Int: [MetricValue]]
  ) -> (csv: CSVBytes, table: SweepSeriesTable) {
    var sweep = CSVBytes()
    sweep.append("point,\(keyHeader),replication,metric,widget,value,unit\n")
    // Per point, each (metric, widget) in the order first seen, with its values by replication: one
    // dictionary lookup per value (a sweep's tasks give a few hundred values each).
    var table = SweepSeriesTable()
    for (task, (point, replication)) in tasks.enumerated() {
      let lead = Array("\(point),\(pointCells[point] ?? ""),\(replication),".utf8)
      var pointSeries = table.series.removeValue(forKey: point) ?? []
      var pointPositions = table.positions.removeValue(forKey: point) ?? [:]
      for value in values[task] ?? [] {
        // Cell by cell into the bytes: no string made per row.
        sweep.append(lead)
        sweep.append(value.metric)
        sweep.comma()
        sweep.append(CSVFormat.text(value.widget))
        sweep.comma()
        sweep.number(value.value, decimals: 6)
        sweep.comma()
        sweep.append(value.unit)
        sweep.newline()
        let key = SweepSeries.Key(metric: value.metric, widget: value.widget)
        let position = pointPositions[key] ?? pointSeries.count
        if position == pointSeries.count {
          pointPositions[key] = position
          pointSeries.append(SweepSeries(key: key, unit: value.unit, values: [:]))
        }
        pointSeries[position].values[replication] = value.value
        if let sampled = value.sampled { pointSeries[position].sampled[replication] = sampled }
      }
      // A point without values is left out, as it always was (no sweep_baseline.csv from such a baseline).
      if !pointSeries.isEmpty {
        table.series[point] = pointSeries
        table.positions[point] = pointPositions
      }
    }
    return (sweep, table)
  }

  /// `sweep_summary.csv`: each point's series as the mean over replications with its 95% confidence
  /// interval; and the same as rows, for the comparison and the console.
  private static func summaryRows(
    keyHeader: String, pointCells: [Int: String], points: [SweepPointRow], table: SweepSeriesTable
  ) -> (csv: String, rows: [SweepSummaryRow]) {
    var rows: [SweepSummaryRow] = []
    var summary = "point,\(keyHeader),metric,widget,mean,ci95_low,ci95_high,replications,unit,ci_method\n"
    for point in points.map(\.index) {
      for entry in table.series[point] ?? [] {
        let statistics = RunningStatistics(entry.inReplicationOrder.filter { !$0.isNaN })
        let (metric, widget) = (entry.key.metric, entry.key.widget)
        // Within the metric's range, as summary.csv's (a fraction's interval stays inside [0, 1]); a fleet's
        // per-second figure from one replication of a sample carries the sample's own interval.
        let interval = RunSummary.interval(
          of: statistics, metric: metric, unit: entry.unit, sampled: entry.sampled.values.first)
        rows.append(
          SweepSummaryRow(
            point: point, metric: metric, widget: widget,
            mean: statistics.count > 0 ? statistics.mean : .nan, interval: interval.map { ($0.low, $0.high) },
            unit: entry.unit, method: interval?.method ?? .none, replications: statistics.count))
        summary += "\(point),\(pointCells[point] ?? ""),\(metric),\(CSVFormat.text(widget)),"
        summary += "\(CSVFormat.number(statistics.count > 0 ? statistics.mean : .nan)),"
        summary += "\(CSVFormat.number(interval?.low ?? .nan)),\(CSVFormat.number(interval?.high ?? .nan)),"
        summary += "\(statistics.count),\(entry.unit),\(interval?.method.rawValue ?? "none")\n"
      }
    }
    return (summary, rows)
  }

  /// `sweep_baseline.csv`: every other point's difference from the baseline point, paired by replication;
  /// nil when the baseline point has no values.
  private static func baselineRows(
    keyHeader: String, pointCells: [Int: String], points: [SweepPointRow], table: SweepSeriesTable, baseline: Int
  ) -> String? {
    guard let reference = table.series[baseline], let referencePositions = table.positions[baseline] else {
      return nil
    }
    var paired = "point,\(keyHeader),metric,widget,difference_mean,ci95_low,ci95_high,replications,unit\n"
    for point in points.map(\.index) where point != baseline {
      for entry in table.series[point] ?? [] {
        guard let position = referencePositions[entry.key] else { continue }
        let base = reference[position]
        // Paired by replication: with common random numbers replication r saw the same user at both points.
        let differences = entry.values.keys.sorted().compactMap { replication -> Double? in
          guard let value = entry.values[replication], let other = base.values[replication] else { return nil }
          let difference = value - other
          return difference.isNaN ? nil : difference
        }
        let statistics = RunningStatistics(differences)
        let interval = ConfidenceInterval(statistics)
        paired += "\(point),\(pointCells[point] ?? ""),\(entry.key.metric),\(CSVFormat.text(entry.key.widget)),"
        paired += "\(CSVFormat.number(statistics.count > 0 ? statistics.mean : .nan)),"
        paired += "\(CSVFormat.number(interval?.low ?? .nan)),\(CSVFormat.number(interval?.high ?? .nan)),"
        paired += "\(statistics.count),\(entry.unit)\n"
      }
    }
    return paired
  }
}

/// Every point's series in the order first seen, and where each (metric, widget) is among them: one
/// dictionary lookup per value while the values are gathered.
private struct SweepSeriesTable {
  var series: [Int: [SweepSeries]] = [:]
  var positions: [Int: [SweepSeries.Key: Int]] = [:]
}

/// One (metric, widget) of a sweep point: its unit, as its first value gave it, and its value in each
/// replication.
private struct SweepSeries {
  struct Key: Hashable {
    let metric: String
    let widget: String
  }
  let key: Key
  let unit: String
  var values: [Int: Double]
  /// The intervals of the replications that estimated the figure from a sample of the fleet.
  var sampled: [Int: SampledInterval] = [:]

  /// The values in replication order.
  var inReplicationOrder: [Double] { values.keys.sorted().compactMap { values[$0] } }
}
