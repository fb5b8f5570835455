/// Integer cells by row (an hour) and column, noting which columns were ever added to (``booked``, one bit
/// each, when the columns fit in `Mask`): the energy ledger's microjoules by subject and component, the app
/// wakes by channel and outcome.
///
/// A phone adds to a few of its columns, so adding its table into a run's sum, emptying it for reuse and
/// totalling it walk only those columns when at most half are booked, rather than every cell. A column never
/// booked is zero in every row, so the sums are the same integers either way.
public struct BookedColumns<Cell: FixedWidthInteger & Accumulator, Mask: FixedWidthInteger & UnsignedInteger>:
  Sendable
where Mask: Sendable {
  /// Rows (``rows``).
  @usableFromInline var rowCount: Int
  public let columns: Int
  /// `[column * rows + row]`: column by column, so a column's rows lie together. Adding a phone's table into
  /// a run's sum, emptying it and totalling it read each booked column's rows in one run of memory, where
  /// row by row each of its cells was a cache line of its own (in both tables).
  @usableFromInline var storage: [Cell]
  /// Bit `column`: the column may hold something in some row. Every column's bit when the columns do not fit
  /// in `Mask` (then nothing is walked), or the cells were handed in whole. Only ever set, but by ``reset()``.
  @usableFromInline var bookedMask: Mask

  @inlinable
  public init(rows: Int, columns: Int) {
    rowCount = rows
    self.columns = columns
    storage = Array(repeating: 0, count: rows * columns)
    bookedMask = columns <= Mask.bitWidth ? 0 : .max
  }

  /// Cells read whole (from a file), `[row * columns + column]`: which columns they use is not known, so every
  /// one counts as booked.
  @inlinable
  public init(rows: Int, columns: Int, cells: [Cell]) {
    precondition(cells.count == rows * columns, "\(cells.count) cells for \(rows) x \(columns)")
    rowCount = rows
    self.columns = columns
    storage = cells.transposed(runs: rows, width: columns)
    bookedMask = BookedColumns.every(columns)
  }

  @inlinable public var rows: Int { rowCount }
  /// Bit `column`: the column may hold something in some row (``bookedMask``).
  @inlinable public var booked: Mask { bookedMask }

  /// Every cell, `[row * columns + column]` (the order files and reports have always had; made on each call).
  @inlinable
  public var cells: [Cell] { storage.transposed(runs: columns, width: rows) }

  /// Every column's bit.
  @inlinable
  static func every(_ columns: Int) -> Mask {
    columns < Mask.bitWidth ? (1 << Mask(columns)) - 1 : .max
  }

  /// Whether walking the booked columns costs less than walking every cell (at most half of them: a phone's
  /// replication; a fleet's sum, or a busy device, uses the plain loops).
  @inlinable
  public var walksColumns: Bool { columns <= Mask.bitWidth && booked.nonzeroBitCount * 2 <= columns }

  /// Adds `amount` to a cell.
  @inlinable @inline(__always)
  public mutating func add(_ amount: Cell, row: Int, column: Int) {
    // A row out of range would land in a neighbouring column (no array bound would catch it).
    precondition(UInt(bitPattern: row) < UInt(bitPattern: rows), "row \(row) of \(rows)")
    bookedMask |= 1 &<< Mask(truncatingIfNeeded: column)  // wraps past the mask's width, where all bits are set
    storage[column * rows + row] += amount
  }

  /// Adds `first` to a cell of `row` and then `second` to another (or the same) cell of it, as two
  /// ``add(_:row:column:)`` calls do, with the row checked and the storage made unique once.
  @inlinable @inline(__always)
  public mutating func add(_ first: Cell, column firstColumn: Int, _ second: Cell, column secondColumn: Int, row: Int) {
    precondition(UInt(bitPattern: row) < UInt(bitPattern: rows), "row \(row) of \(rows)")
    bookedMask |= 1 &<< Mask(truncatingIfNeeded: firstColumn)  // as add(_:row:column:)
    bookedMask |= 1 &<< Mask(truncatingIfNeeded: secondColumn)
    let rows = rows
    storage[firstColumn * rows + row] += first
    storage[secondColumn * rows + row] += second
  }

  @inlinable
  public subscript(row: Int, column: Int) -> Cell {
    precondition(UInt(bitPattern: row) < UInt(bitPattern: rows), "row \(row) of \(rows)")
    return storage[column * rows + row]
  }

  /// The same cells (whichever columns each side noted as booked), compared without making the row-major copy.
  @inlinable
  public func sameCells(as other: BookedColumns) -> Bool {
    rows == other.rows && columns == other.columns && storage == other.storage
  }

  /// Both tables have the same rows and columns.
  @inlinable
  func checkShape(_ other: BookedColumns) {
    precondition(rows == other.rows && columns == other.columns, "merged tables of different shapes")
  }

  /// Adds another table's cells. `wrapping` adds without the overflow check, for cells whose owner bounds
  /// every sum (a branch per cell otherwise).
  @inlinable
  public mutating func merge(_ other: BookedColumns, wrapping: Bool) {
    checkShape(other)
    let rows = rows
    storage.withUnsafeMutableBufferPointer { mine in
      other.storage.withUnsafeBufferPointer { theirs in
        // Read only: the walk hands `theirs` to the body, which does not write it.
        let theirs = UnsafeMutableBufferPointer(mutating: theirs)
        switch (other.walksColumns, wrapping) {
        case (true, true):
          other.bookedMask.forEachSetBit { column in
            BookedColumns.walk(mine, theirs, column: column, rows: rows) { $0 &+= $1 }
          }
        case (true, false):
          other.bookedMask.forEachSetBit { column in
            BookedColumns.walk(mine, theirs, column: column, rows: rows) { $0 += $1 }
          }
        case (false, true):
          for index in mine.indices { mine[index] &+= theirs[index] }
        case (false, false):
          for index in mine.indices { mine[index] += theirs[index] }
        }
      }
    }
    bookedMask |= other.bookedMask
  }

  /// Adds `other`'s cells as ``merge(_:wrapping:)`` does with `wrapping: true` (no overflow check) and empties
  /// them: its booked columns in the same walk (then none is booked), or all of it after a plain merge. Only
  /// for cells whose owner bounds every sum (the energy ledger's); a table whose sums need the check merges.
  @inlinable
  public mutating func absorb(_ other: inout BookedColumns) {
    checkShape(other)
    guard other.walksColumns else {
      merge(other, wrapping: true)
      return other.reset()
    }
    let rows = rows
    storage.withUnsafeMutableBufferPointer { mine in
      other.storage.withUnsafeMutableBufferPointer { theirs in
        other.bookedMask.forEachSetBit { column in
          BookedColumns.walk(mine, theirs, column: column, rows: rows) { mine, theirs in
            mine &+= theirs
            theirs = 0
          }
        }
      }
    }
    bookedMask |= other.bookedMask
    other.bookedMask = 0  // every cell is zero again
  }

  /// Every column's sum over every row.
  @inlinable
  public func totals() -> [Cell] {
    var totals = [Cell](repeating: 0, count: columns)
    let (rows, walks, booked) = (rows, walksColumns, booked)
    storage.withUnsafeBufferPointer { cells in
      totals.withUnsafeMutableBufferPointer { totals in
        let cells = UnsafeMutableBufferPointer(mutating: cells)  // read only: the body does not write it
        func total(_ column: Int) {
          var total: Cell = 0
          BookedColumns.walk(cells, column: column, rows: 0..<rows, of: rows) { total += $0 }
          totals[column] = total
        }
        if walks {
          booked.forEachSetBit(total)
        } else {
          for column in totals.indices { total(column) }
        }
      }
    }
    return totals
  }

  /// Empties every row, keeping the memory.
  @inlinable
  public mutating func reset() {
    storage.reset()
    bookedMask = columns <= Mask.bitWidth ? 0 : .max
  }

  /// Empties the rows of `days` (of `total`): only the booked columns when they are few.
  @inlinable
  public mutating func clear(days: Range<Int>, of total: Int) {
    guard !days.isEmpty, total > 0 else { return }
    let rowsPerDay = rows / total
    let cleared = (days.lowerBound * rowsPerDay)..<(days.upperBound * rowsPerDay)
    // Checked whatever is booked (the walk checks again for each column it takes).
    precondition(cleared.lowerBound >= 0 && cleared.upperBound <= rows, "days out of range")
    let (rows, columns, walks, booked) = (rows, columns, walksColumns, booked)
    storage.withUnsafeMutableBufferPointer { cells in
      func clear(_ column: Int) {
        BookedColumns.walk(cells, column: column, rows: cleared, of: rows) { $0 = 0 }
      }
      if walks {
        booked.forEachSetBit(clear)
      } else {
        for column in 0..<columns { clear(column) }
      }
    }
  }

  /// Calls `body` with each cell of `column` in `mine` and in `theirs`, row by row, through pointers (an
  /// index computed and checked per cell cost more than the add). Read-only callers hand their buffers in as
  /// mutable ones and do not write them.
  @inlinable @inline(__always)
  static func walk(
    _ mine: UnsafeMutableBufferPointer<Cell>, _ theirs: UnsafeMutableBufferPointer<Cell>, column: Int, rows: Int,
    _ body: (inout Cell, inout Cell) -> Void
  ) {
    precondition(
      column >= 0 && (column + 1) * rows <= Swift.min(mine.count, theirs.count), "a column out of range")
    guard rows > 0, let mineBase = mine.baseAddress, let theirBase = theirs.baseAddress else { return }
    let (mineCells, theirCells) = (mineBase + column * rows, theirBase + column * rows)
    for row in 0..<rows { body(&mineCells[row], &theirCells[row]) }
  }

  /// Calls `body` with each cell of `column` in the rows `range` of `cells`, a table of `rows` rows.
  @inlinable @inline(__always)
  static func walk(
    _ cells: UnsafeMutableBufferPointer<Cell>, column: Int, rows range: Range<Int>, of rows: Int,
    _ body: (inout Cell) -> Void
  ) {
    precondition(
      column >= 0 && range.lowerBound >= 0 && range.upperBound <= rows && (column + 1) * rows <= cells.count,
      "a column or rows out of range")
    guard !range.isEmpty, let base = cells.baseAddress else { return }
    let columnCells = base + column * rows
    for row in range { body(&columnCells[row]) }
  }

  /// Leaves out the first `days` of `total`.
  @inlinable
  public mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, total > 0 else { return }
    let dropped = rows / total * days
    storage = storage.droppingFirst(dropped, ofRunsOf: rows)
    rowCount -= dropped
  }
}
