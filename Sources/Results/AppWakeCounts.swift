import ResultStorage
import SimulationEngine

/// App wakes by hour and cell (a channel's outcome: ``ReplicationResult/appWakeCell(_:_:)``), summed over
/// devices.
///
/// A phone meets a few of the 45 cells (an app opened by the user, a background refresh granted or denied),
/// so the counts are a ``BookedColumns`` table (a column per cell), as the energy ledger's are: adding them
/// into a run's sum, emptying them for reuse and totalling them walk only the cells ever counted when they
/// are few.
package struct AppWakeCounts: Sendable, DayCleared {
  /// Cells of an hour: every channel and outcome.
  static let cellsPerHour = AppWakeChannel.count * AppWakeOutcome.count
  /// Counts by hour and cell.
  private(set) var table: BookedColumns<Int64, UInt64>

  /// No hours.
  package init() {
    self.init(hours: 0)
  }

  package init(hours: Int) {
    table = BookedColumns(rows: hours, columns: AppWakeCounts.cellsPerHour)
  }

  var hours: Int { table.rows }
  /// Hour by hour, a cell per channel and outcome.
  var counts: [Int64] { table.cells }
  /// Bit `cell`: the cell may hold a count in some hour (all bits for counts read from a file).
  var bookedCells: UInt64 { table.booked }

  /// Counts one wake in hour `hourIndex` (clamped to the hours kept).
  mutating func add(hourIndex: Int, cell: Int) {
    table.add(1, row: Swift.min(Swift.max(hourIndex, 0), hours - 1), column: cell)
  }

  func count(hourIndex: Int, cell: Int) -> Int64 {
    table[hourIndex, cell]
  }

  /// Every cell's count over every hour, by cell.
  func totals() -> [Int] {
    table.totals().map { Int($0) }
  }

  /// Adds another result's counts (another worker's devices, a replication into a run's sum).
  package mutating func merge(_ other: AppWakeCounts) {
    table.merge(other.table, wrapping: false)
  }

  /// Empties every hour, keeping the memory.
  package mutating func reset() {
    table.reset()
  }

  /// Empties the hours of `days` (of `total`): only the booked cells when they are few.
  package mutating func clear(days: Range<Int>, of total: Int) {
    table.clear(days: days, of: total)
  }

  package mutating func resetAllButDays() {}

  package mutating func dropFirst(days: Int, of total: Int) {
    table.dropFirst(days: days, of: total)
  }
}

/// The same counts, whichever cells each side noted as booked.
extension AppWakeCounts: Equatable {
  package static func == (left: AppWakeCounts, right: AppWakeCounts) -> Bool {
    left.table.sameCells(as: right.table)
  }
}

extension AppWakeCounts: Shaped {
  package var shape: [Int] { [hours] }
}

/// The counts as a plain array of cells (the format shard files have always had).
extension AppWakeCounts: BinaryCodable {
  package func encode(to writer: inout BinaryWriter) {
    counts.encode(to: &writer)
  }

  package init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    let counts = try [Int64](from: &reader)
    guard counts.count % AppWakeCounts.cellsPerHour == 0 else {
      throw reader.error("\(counts.count) app-wake counts, not a whole number of hours")
    }
    // Which cells the file's counts use is not written: any may.
    table = BookedColumns(
      rows: counts.count / AppWakeCounts.cellsPerHour, columns: AppWakeCounts.cellsPerHour, cells: counts)
  }
}
