/// `replications.csv`: every summary metric's value in every replication, at full precision, with the seed,
/// so `widgetsim compare` can test differences (paired when two runs share seed and replications). A copy
/// of this file is a stored baseline for `widgetsim check`.
enum ReplicationsReport {
  static let file = "replications.csv"
  static let header = "seed,replication,metric,widget,value,unit\n"

  /// The cells of a replication's rows that every replication shares (metric and widget before the value,
  /// the unit after it), made once for a run: a run of thousands of short replications writes them all.
  struct RowCells: Sendable {
    /// UTF-8, ready to copy into a row.
    let keys: [[UInt8]]
    let units: [[UInt8]]

    /// For the summary's rows, in order.
    init(_ rows: [(metric: String, widget: String, unit: String)]) {
      keys = rows.map { Array("\($0.metric),\(CSVFormat.text($0.widget)),".utf8) }
      units = rows.map { Array(",\($0.unit)\n".utf8) }
    }
  }

  static func rows(_ values: [MetricValue], seed: UInt64, replication: Int, cells: RowCells) -> String {
    // Every replication of a run has the same metrics in the same order (the summary's rows).
    precondition(cells.keys.count == values.count, "replication rows for other metrics")
    let lead = Array("\(seed),\(replication),".utf8)
    var text = CSVBytes(capacity: values.count * 64)
    // Through buffers: an element read out of an array (a value with its strings, a key) is retained, four
    // times a row otherwise. Appended as bytes: a string append per cell cost more than the value's text.
    values.withUnsafeBufferPointer { values in
      cells.keys.withUnsafeBufferPointer { keys in
        cells.units.withUnsafeBufferPointer { units in
          for row in values.indices {
            text.append(lead)
            text.append(keys[row])
            let value = values[row].value
            if value.isFinite { text.append(value.description) }
            text.append(units[row])
          }
        }
      }
    }
    return text.text
  }
}

/// A run's replications.csv rows for one replication's values, made on any thread (replications run side by
/// side render their own rows: see ``RunReportWriter/add(summed:eventsHandled:fingerprint:devices:values:rows:)``).
public struct ReplicationRows: Sendable {
  let seed: UInt64
  let cells: ReplicationsReport.RowCells

  public func text(_ values: [MetricValue], replication: Int) -> String {
    ReplicationsReport.rows(values, seed: seed, replication: replication, cells: cells)
  }
}
