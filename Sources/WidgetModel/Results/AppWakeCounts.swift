import SimulationEngine

/// App wakes by hour and cell (`channel * AppWakeOutcome.count + outcome`), summed over devices.
///
/// A phone meets a few of the 45 cells (an app opened by the user, a background refresh granted or denied),
/// so the counts note which cells were ever counted (``bookedCells``, one bit each): adding them into a
/// run's sum, emptying them for reuse and totalling them walk only those cells of each hour when they are few,
/// as ``EnergyLedger`` does with its columns. A cell never counted is zero in every hour, so the sums are
/// the same integers as through every cell.
struct AppWakeCounts: Sendable, DayCleared {
  /// Cells of an hour: every channel and outcome.
  static let cellsPerHour = AppWakeChannel.count * AppWakeOutcome.count
  private(set) var hours: Int
  /// `[hour * cellsPerHour + cell]`.
  private(set) var counts: [Int64]
  /// Bit `cell`: the cell may hold a count in some hour (all bits for counts read from a file). Only ever
  /// set, but by ``reset()``.
  private(set) var bookedCells: UInt64 = 0

  /// Every cell of an hour, as booked bits.
  private static let allCells: UInt64 = (1 << UInt64(cellsPerHour)) - 1

  /// No hours.
  init() {
    self.init(hours: 0)
  }

  init(hours: Int) {
    precondition(AppWakeCounts.cellsPerHour <= UInt64.bitWidth, "more app-wake cells than booked bits")
    self.hours = hours
    counts = Array(repeating: 0, count: hours * AppWakeCounts.cellsPerHour)
  }

  /// Counts one wake in hour `hourIndex` (clamped to the hours kept).
  mutating func add(hourIndex: Int, cell: Int) {
    let hour = Swift.min(Swift.max(hourIndex, 0), hours - 1)
    bookedCells |= 1 &<< UInt64(truncatingIfNeeded: cell)
    counts[hour * AppWakeCounts.cellsPerHour + cell] += 1
  }

  func count(hourIndex: Int, cell: Int) -> Int64 {
    counts[hourIndex * AppWakeCounts.cellsPerHour + cell]
  }

  /// Whether walking the booked cells of each hour costs less than walking every cell (at most half of them,
  /// as the energy ledger decides).
  private var walksCells: Bool { bookedCells.nonzeroBitCount * 2 <= AppWakeCounts.cellsPerHour }

  /// Every cell's count over every hour, by cell.
  func totals() -> [Int] {
    var totals = Array(repeating: 0, count: AppWakeCounts.cellsPerHour)
    let (hours, walks, booked) = (hours, walksCells, bookedCells)
    let width = AppWakeCounts.cellsPerHour
    counts.withUnsafeBufferPointer { counts in
      totals.withUnsafeMutableBufferPointer { totals in
        if walks {
          booked.forEachSetBit { cell in
            for hour in 0..<hours { totals[cell] += Int(counts[hour * width + cell]) }
          }
        } else {
          for hour in 0..<hours {
            for cell in 0..<width { totals[cell] += Int(counts[hour * width + cell]) }
          }
        }
      }
    }
    return totals
  }

  /// Adds another result's counts (another worker's devices, a replication into a run's sum).
  mutating func merge(_ other: AppWakeCounts) {
    precondition(counts.count == other.counts.count, "merged app wakes of different shapes")
    bookedCells |= other.bookedCells
    guard other.walksCells else { return counts.merge(other.counts) }
    let (hours, width) = (hours, AppWakeCounts.cellsPerHour)
    counts.withUnsafeMutableBufferPointer { mine in
      other.counts.withUnsafeBufferPointer { theirs in
        other.bookedCells.forEachSetBit { cell in
          for hour in 0..<hours { mine[hour * width + cell] += theirs[hour * width + cell] }
        }
      }
    }
  }

  /// Empties every hour, keeping the memory.
  mutating func reset() {
    counts.reset()
    bookedCells = 0
  }

  /// Empties the hours of `days` (of `total`): only the booked cells when they are few.
  mutating func clear(days: Range<Int>, of total: Int) {
    guard !days.isEmpty, total > 0 else { return }
    guard walksCells else { return counts.clear(days: days, of: total) }
    let hoursPerDay = hours / total
    let cleared = (days.lowerBound * hoursPerDay)..<(days.upperBound * hoursPerDay)
    let width = AppWakeCounts.cellsPerHour
    let booked = bookedCells
    counts.withUnsafeMutableBufferPointer { counts in
      booked.forEachSetBit { cell in
        for hour in cleared { counts[hour * width + cell] = 0 }
      }
    }
  }

  mutating func resetAllButDays() {}

  mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, total > 0 else { return }
    counts.dropFirst(days: days, of: total)
    hours -= hours / total * days
  }
}

/// The same counts, whichever cells each side noted as booked.
extension AppWakeCounts: Equatable {
  static func == (left: AppWakeCounts, right: AppWakeCounts) -> Bool {
    left.hours == right.hours && left.counts == right.counts
  }
}

extension AppWakeCounts: Shaped {
  var shape: [Int] { [hours] }
}

/// The counts as a plain array of cells (the format shard files have always had).
extension AppWakeCounts: BinaryCodable {
  func encode(to writer: inout BinaryWriter) {
    counts.encode(to: &writer)
  }

  init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    let counts = try [Int64](from: &reader)
    guard counts.count % AppWakeCounts.cellsPerHour == 0 else {
      throw reader.error("\(counts.count) app-wake counts, not a whole number of hours")
    }
    self.init(hours: counts.count / AppWakeCounts.cellsPerHour)
    self.counts = counts
    bookedCells = AppWakeCounts.allCells  // which cells the file's counts use is not written: any may
  }
}
