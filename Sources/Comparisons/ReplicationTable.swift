import Reports
import Results

/// The per-replication metric values of one run, as `replications.csv` holds them (a run folder's file, or
/// a copy kept as a baseline).
public struct ReplicationTable: Sendable {
  /// One metric of one subject.
  public struct Key: Hashable, Sendable {
    public let metric: String
    public let widget: String

    public init(metric: String, widget: String) {
      self.metric = metric
      self.widget = widget
    }
  }

  /// Values of one key: by replication, NaN where the replication had nothing to measure.
  public struct Series: Sendable {
    public let unit: String
    public var values: [Int: Double]
  }

  /// Where the table came from, for messages.
  public let path: String
  /// Keys in file order.
  public let keys: [Key]
  public let series: [Key: Series]
  /// The seeds the replications ran with (one for a run).
  public let seeds: Set<UInt64>

  /// The replications the table holds (of any metric).
  public var replications: Set<Int> { Set(series.values.flatMap(\.values.keys)) }
  public var replicationCount: Int { replications.count }

  public static let header = ["seed", "replication", "metric", "widget", "value", "unit"]
  /// The largest value a replications file may hold (1e18: far above any fleet's daily bytes, far below
  /// where a variance overflows).
  public static let largestValue = 1e18
  /// The largest replications file read (see ``InputLimits/replicationsBytes``).
  public static let maximumBytes = InputLimits.replicationsBytes

  /// Reads `path`: a `replications.csv`, or a run folder holding one; row by row, so memory holds the table,
  /// not the file (at most ``maximumBytes``).
  public static func load(_ path: String) throws(ComparisonError) -> ReplicationTable {
    let file = TextFile.isDirectory(path) ? "\(path)/replications.csv" : path
    guard TextFile.isReadable(file) else {
      throw ComparisonError(
        "\(file): cannot read it; expected a replications.csv or a run folder holding one (written by widgetsim run)")
    }
    var builder = Builder(path: file)
    do {
      try CSVStream.forEachRow(path: file, limit: maximumBytes) { cells, line in try builder.add(cells, line: line) }
    } catch let error as ComparisonError {
      throw error
    } catch {
      throw ComparisonError("\(error)")
    }
    return try builder.finish()
  }

  /// Parses the text of a replications file; errors name the file, line and column.
  public static func parse(_ text: String, path: String) throws(ComparisonError) -> ReplicationTable {
    var builder = Builder(path: path)
    let rows = CSVLines.parse(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
    for (offset, cells) in rows.enumerated() { try builder.add(cells, line: offset + 1) }
    return try builder.finish()
  }

  /// The table built one row at a time (header first), checking each.
  struct Builder {
    let path: String
    var sawHeader = false
    var keys: [Key] = []
    var series: [Key: Series] = [:]
    var seeds: Set<UInt64> = []

    init(path: String) {
      self.path = path
    }

    mutating func add(_ cells: [String], line: Int) throws(ComparisonError) {
      guard sawHeader else {
        guard cells == header else {
          throw ComparisonError(
            "\(path):1:1: header is '\(cells.joined(separator: ","))'; expected '\(header.joined(separator: ","))'")
        }
        sawHeader = true
        return
      }
      if cells == [""] { return }
      guard cells.count == header.count else {
        throw ComparisonError(
          "\(path):\(line):1: \(cells.count) fields; expected \(header.count) (\(header.joined(separator: ",")))")
      }
      func column(_ name: String) -> Int { header.firstIndex(of: name)! + 1 }
      guard let seed = UInt64(cells[0]) else {
        throw ComparisonError("\(path):\(line):\(column("seed")): seed '\(cells[0])' is not a whole number")
      }
      guard let replication = Int(cells[1]), replication >= 0 else {
        throw ComparisonError(
          "\(path):\(line):\(column("replication")): replication '\(cells[1])' is not a whole number >= 0")
      }
      let value: Double
      if cells[4].isEmpty {
        value = .nan
      } else if let number = Double(cells[4]), number.isFinite {
        value = number
      } else {
        throw ComparisonError("\(path):\(line):\(column("value")): value '\(cells[4])' is not a number (or empty)")
      }
      // Every widgetsim metric is a count, duration, energy, share or rate: none is negative, none near the
      // limits of a double (whose squares would overflow the statistics).
      guard value.isNaN || (value >= 0 && value <= ReplicationTable.largestValue) else {
        throw ComparisonError(
          "\(path):\(line):\(column("value")): value \(cells[4]) is outside 0...\(ReplicationTable.largestValue): "
            + "no widgetsim metric is negative or that large")
      }
      // A baseline written before a metric was renamed compares with a candidate written after.
      let key = Key(metric: RenamedMetric.current(cells[2]), widget: cells[3])
      if series[key] == nil {
        keys.append(key)
        series[key] = Series(unit: cells[5], values: [:])
      }
      guard series[key]?.unit == cells[5] else {
        throw ComparisonError(
          "\(path):\(line):\(column("unit")): unit '\(cells[5])' of \(key.metric) (\(key.widget)) differs from '\(series[key]!.unit)' above"
        )
      }
      guard series[key]?.values.updateValue(value, forKey: replication) == nil else {
        throw ComparisonError(
          "\(path):\(line):\(column("replication")): replication \(replication) of \(key.metric) (\(key.widget)) appears twice"
        )
      }
      seeds.insert(seed)
    }

    func finish() throws(ComparisonError) -> ReplicationTable {
      guard sawHeader else { throw ComparisonError("\(path):1:1: empty file; expected a replications.csv") }
      guard !keys.isEmpty else {
        throw ComparisonError("\(path):2:1: no rows; expected one per replication and metric")
      }
      return ReplicationTable(path: path, keys: keys, series: series, seeds: seeds)
    }
  }
}
