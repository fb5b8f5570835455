/// Integer cells by row (an hour) and column, noting which columns were ever added to (``booked``, one bit
/// each, when the columns fit in `Mask`): the energy ledger's microjoules by subject and component, the app
/// wakes by channel and outcome.
///
/// A phone adds to a few of its columns, so adding its table into a run's sum, emptying it for reuse and
/// totalling it walk only those columns of each row when at most half are booked, rather than every cell. A
/// column never booked is zero in every row, so the sums are the same integers either way.
struct BookedColumns<Cell: FixedWidthInteger & Accumulator, Mask: FixedWidthInteger & UnsignedInteger>: Sendable
where Mask: Sendable {
  private(set) var rows: Int
  let columns: Int
  /// `[row * columns + column]`.
  private(set) var cells: [Cell]
  /// Bit `column`: the column may hold something in some row. Every column's bit when the columns do not fit
  /// in `Mask` (then nothing is walked), or the cells were handed in whole. Only ever set, but by ``reset()``.
  private(set) var booked: Mask

  init(rows: Int, columns: Int) {
    self.rows = rows
    self.columns = columns
    cells = Array(repeating: 0, count: rows * columns)
    booked = columns <= Mask.bitWidth ? 0 : .max
  }

  /// Cells read whole (from a file): which columns they use is not known, so every one counts as booked.
  init(rows: Int, columns: Int, cells: [Cell]) {
    precondition(cells.count == rows * columns, "\(cells.count) cells for \(rows) x \(columns)")
    self.rows = rows
    self.columns = columns
    self.cells = cells
    booked = BookedColumns.every(columns)
  }

  /// Every column's bit.
  private static func every(_ columns: Int) -> Mask {
    columns < Mask.bitWidth ? (1 << Mask(columns)) - 1 : .max
  }

  /// Whether walking the booked columns of each row costs less than walking every cell (at most half of
  /// them: a phone's replication; a fleet's sum, or a busy device, uses the plain loops). A replication's
  /// small tables stay in the cache, so a booked cell costs about what a cell of the plain loop costs.
  var walksColumns: Bool { columns <= Mask.bitWidth && booked.nonzeroBitCount * 2 <= columns }

  /// Adds `amount` to a cell.
  @inline(__always)
  mutating func add(_ amount: Cell, row: Int, column: Int) {
    booked |= 1 &<< Mask(truncatingIfNeeded: column)  // wraps past the mask's width, where all bits are set
    cells[row * columns + column] += amount
  }

  subscript(row: Int, column: Int) -> Cell { cells[row * columns + column] }

  /// Adds another table's cells. `wrapping` adds without the overflow check, for cells whose owner bounds
  /// every sum (a branch per cell otherwise).
  mutating func merge(_ other: BookedColumns, wrapping: Bool) {
    precondition(cells.count == other.cells.count, "merged tables of different shapes")
    let (rows, columns) = (rows, columns)
    cells.withUnsafeMutableBufferPointer { mine in
      other.cells.withUnsafeBufferPointer { theirs in
        // Read only: the walk hands `theirs` to the body, which does not write it.
        let theirs = UnsafeMutableBufferPointer(mutating: theirs)
        switch (other.walksColumns, wrapping) {
        case (true, true):
          other.booked.forEachSetBit { column in
            BookedColumns.walk(mine, theirs, column: column, rows: rows, columns: columns) { $0 &+= $1 }
          }
        case (true, false):
          other.booked.forEachSetBit { column in
            BookedColumns.walk(mine, theirs, column: column, rows: rows, columns: columns) { $0 += $1 }
          }
        case (false, true):
          for index in mine.indices { mine[index] &+= theirs[index] }
        case (false, false):
          for index in mine.indices { mine[index] += theirs[index] }
        }
      }
    }
    booked |= other.booked
  }

  /// Adds `other`'s cells as ``merge(_:wrapping:)`` does with `wrapping: true` (no overflow check) and empties
  /// them: its booked columns in the same walk (then none is booked), or all of it after a plain merge. Only
  /// for cells whose owner bounds every sum (the energy ledger's); a table whose sums need the check merges.
  mutating func absorb(_ other: inout BookedColumns) {
    precondition(cells.count == other.cells.count, "merged tables of different shapes")
    guard other.walksColumns else {
      merge(other, wrapping: true)
      return other.reset()
    }
    let (rows, columns) = (rows, columns)
    cells.withUnsafeMutableBufferPointer { mine in
      other.cells.withUnsafeMutableBufferPointer { theirs in
        other.booked.forEachSetBit { column in
          BookedColumns.walk(mine, theirs, column: column, rows: rows, columns: columns) { mine, theirs in
            mine &+= theirs
            theirs = 0
          }
        }
      }
    }
    booked |= other.booked
    other.booked = 0  // every cell is zero again
  }

  /// Every column's sum over every row.
  func totals() -> [Cell] {
    var totals = [Cell](repeating: 0, count: columns)
    let (rows, columns, walks, booked) = (rows, columns, walksColumns, booked)
    cells.withUnsafeBufferPointer { cells in
      totals.withUnsafeMutableBufferPointer { totals in
        if walks {
          let cells = UnsafeMutableBufferPointer(mutating: cells)  // read only: the body does not write it
          booked.forEachSetBit { column in
            var total: Cell = 0
            BookedColumns.walk(cells, column: column, rows: 0..<rows, columns: columns) { total += $0 }
            totals[column] = total
          }
        } else {
          for row in 0..<rows {
            for column in 0..<columns { totals[column] += cells[row * columns + column] }
          }
        }
      }
    }
    return totals
  }

  /// Empties every row, keeping the memory.
  mutating func reset() {
    cells.reset()
    booked = columns <= Mask.bitWidth ? 0 : .max
  }

  /// Empties the rows of `days` (of `total`): only the booked columns when they are few.
  mutating func clear(days: Range<Int>, of total: Int) {
    guard !days.isEmpty, total > 0 else { return }
    guard walksColumns else { return cells.clear(days: days, of: total) }
    let rowsPerDay = rows / total
    let cleared = (days.lowerBound * rowsPerDay)..<(days.upperBound * rowsPerDay)
    // Checked whatever is booked (the walk checks again for each column it takes).
    precondition(cleared.lowerBound >= 0 && cleared.upperBound <= rows, "days out of range")
    let (columns, booked) = (columns, booked)
    cells.withUnsafeMutableBufferPointer { cells in
      booked.forEachSetBit { column in
        BookedColumns.walk(cells, column: column, rows: cleared, columns: columns) { $0 = 0 }
      }
    }
  }

  /// Calls `body` with each cell of `column` in `mine` and in `theirs`, row by row: a pointer that steps a row
  /// at a time, where an index computed and checked per cell cost more than the add. Read-only callers hand
  /// their buffers in as mutable ones and do not write them.
  @inline(__always)
  private static func walk(
    _ mine: UnsafeMutableBufferPointer<Cell>, _ theirs: UnsafeMutableBufferPointer<Cell>, column: Int, rows: Int,
    columns: Int, _ body: (inout Cell, inout Cell) -> Void
  ) {
    precondition(
      column >= 0 && column < columns && rows * columns <= Swift.min(mine.count, theirs.count), "a column out of range")
    guard rows > 0, var mineCell = mine.baseAddress, var theirCell = theirs.baseAddress else { return }
    mineCell += column
    theirCell += column
    for _ in 0..<rows {
      body(&mineCell.pointee, &theirCell.pointee)
      mineCell += columns
      theirCell += columns
    }
  }

  /// Calls `body` with each cell of `column` in `rows` of `cells`, row by row.
  @inline(__always)
  private static func walk(
    _ cells: UnsafeMutableBufferPointer<Cell>, column: Int, rows: Range<Int>, columns: Int,
    _ body: (inout Cell) -> Void
  ) {
    precondition(
      column >= 0 && column < columns && rows.lowerBound >= 0 && rows.upperBound * columns <= cells.count,
      "a column or rows out of range")
    guard !rows.isEmpty, var cell = cells.baseAddress else { return }
    cell += rows.lowerBound * columns + column
    for _ in rows {
      body(&cell.pointee)
      cell += columns
    }
  }

  /// Leaves out the first `days` of `total`.
  mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, total > 0 else { return }
    cells.dropFirst(days: days, of: total)
    rows -= rows / total * days
  }
}
