/// `replications.csv`: every summary metric's value in every replication, at full precision, with the seed,
/// so `widgetsim compare` can test differences (paired when two runs share seed and replications). A copy
/// of this file is a stored baseline for `widgetsim check`.
enum ReplicationsReport {
  static let file = "replications.csv"
  static let header = "seed,replication,metric,widget,value,unit\n"

  /// The cells of a replication's rows that every replication shares (metric and widget before the value,
  /// the unit after it), made once for a run: a run of thousands of short replications writes them all.
  struct RowCells {
    let keys: [String]
    let units: [String]

    init(_ values: [MetricValue]) {
      keys = values.map { "\($0.metric),\(CSVFormat.text($0.widget))," }
      units = values.map { ",\($0.unit)\n" }
    }
  }

  static func rows(_ values: [MetricValue], seed: UInt64, replication: Int, cells: RowCells) -> String {
    // Every replication of a run has the same metrics in the same order (the summary's rows).
    precondition(cells.keys.count == values.count, "replication rows for other metrics")
    let lead = "\(seed),\(replication),"
    var text = ""
    text.reserveCapacity(values.count * 64)
    for (row, value) in values.enumerated() {
      text += lead
      text += cells.keys[row]
      if value.value.isFinite { text += value.value.description }
      text += cells.units[row]
    }
    return text
  }
}
