/// `replications.csv`: every summary metric's value in every replication, at full precision, with the seed,
/// so `widgetsim compare` can test differences (paired when two runs share seed and replications). A copy
/// of this file is a stored baseline for `widgetsim check`.
enum ReplicationsReport {
  static let file = "replications.csv"
  static let header = "seed,replication,metric,widget,value,unit\n"

  /// The cells of a replication's rows that every replication shares (metric and widget before the value,
  /// the unit after it), made once for a run: a run of thousands of short replications writes them all.
  struct RowCells: Sendable {
    /// Every row's key cells (metric and widget, with their commas) and unit cell (with its comma and the
    /// line's end), UTF-8 one after another: one array, so a row copies from it without retaining an array
    /// per cell.
    let bytes: [UInt8]
    /// Where each row's keys and unit are in ``bytes``.
    let keys: [Range<Int>]
    let units: [Range<Int>]

    /// For the summary's rows, in order.
    init(_ rows: [(metric: String, widget: String, unit: String)]) {
      var bytes: [UInt8] = []
      var keys: [Range<Int>] = []
      var units: [Range<Int>] = []
      func add(_ text: String) -> Range<Int> {
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        return start..<bytes.count
      }
      for row in rows {
        keys.append(add("\(row.metric),\(CSVFormat.text(row.widget)),"))
        units.append(add(",\(row.unit)\n"))
      }
      self.bytes = bytes
      self.keys = keys
      self.units = units
    }
  }

  static func rows(_ values: [Double], seed: UInt64, replication: Int, cells: RowCells) -> String {
    // Every replication of a run has the same metrics in the same order (the summary's rows).
    precondition(cells.keys.count == values.count, "replication rows for other metrics")
    let lead = Array("\(seed),\(replication),".utf8)
    // Written by pointer into the string's own memory, sized for the longest number in every row: an
    // element read out of an array (a value with its strings, a key) is retained, four times a row otherwise,
    // and an array append per cell cost about what the value's text did.
    let capacity = cells.bytes.count + values.count * (lead.count + CSVBytes.shortestLimit)
    return String(unsafeUninitializedCapacity: capacity) { text in
      var end = 0
      func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
        _ = UnsafeMutableBufferPointer(rebasing: text[end..<(end + bytes.count)]).initialize(fromContentsOf: bytes)
        end += bytes.count
      }
      values.withUnsafeBufferPointer { values in
        cells.bytes.withUnsafeBufferPointer { bytes in
          lead.withUnsafeBufferPointer { lead in
            for row in values.indices {
              copy(lead)
              copy(UnsafeBufferPointer(rebasing: bytes[cells.keys[row]]))
              let value = values[row]
              if value.isFinite { end += CSVBytes.writeShortest(value, to: text.baseAddress! + end) }
              copy(UnsafeBufferPointer(rebasing: bytes[cells.units[row]]))
            }
          }
        }
      }
      return end
    }
  }
}

/// A run's replications.csv rows for one replication's values, made on any thread (replications run side by
/// side render their own rows: see ``RunReportWriter/add(summed:eventsHandled:fingerprint:devices:values:rows:)``).
public struct ReplicationRows: Sendable {
  let seed: UInt64
  let cells: ReplicationsReport.RowCells

  public func text(_ values: [Double], replication: Int) -> String {
    ReplicationsReport.rows(values, seed: seed, replication: replication, cells: cells)
  }
}
