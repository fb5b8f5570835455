/// Adding one table of counts into another: whole, or through the runs of cells a sparse one holds.
extension CompactCounts {
  // Results reach their fields through an existential, where the generic version would run at a
  // witness-table call per cell.
  @_specialize(where Cell == UInt32)
  @_specialize(where Cell == UInt8)
  @inlinable
  public mutating func merge(_ other: CompactCounts) {
    precondition(storage.count == other.storage.count, "merged counts of different shapes")
    // The common case, no cell reaching `Cell.max` (marked or full): two plain loops the compiler vectorises,
    // one that looks and one that adds, instead of a branch per cell.
    let fits = storage.withUnsafeBufferPointer { mine in
      other.storage.withUnsafeBufferPointer { theirs in
        var largest: UInt64 = 0
        for index in mine.indices { largest = Swift.max(largest, UInt64(mine[index]) &+ UInt64(theirs[index])) }
        return largest < UInt64(Cell.max)
      }
    }
    if fits {
      storage.withUnsafeMutableBufferPointer { mine in
        other.storage.withUnsafeBufferPointer { theirs in
          for index in mine.indices { mine[index] &+= theirs[index] }
        }
      }
      return
    }
    other.storage.withUnsafeBufferPointer { theirs in
      for index in theirs.indices where theirs[index] != 0 {
        let amount = theirs[index] == Cell.max ? other.large[index, default: 0] : UInt64(theirs[index])
        add(amount, at: index)
      }
    }
  }

  /// Adds `other`'s cells in the runs of `width` cells from `start * width` for every start of `starts`
  /// (a server load's busy minutes, a reload tally's held pairs), in one pass: in place while a sum stays
  /// below `Cell.max`, through ``add(_:at:)`` otherwise.
  @inlinable
  public mutating func merge(_ other: CompactCounts, each starts: some Sequence<Int>, width: Int) {
    precondition(storage.count == other.storage.count, "merged counts of different shapes")
    let full = other.storage.withUnsafeBufferPointer { theirs in
      // Read only: not emptying, nothing is written through it.
      addInPlace(UnsafeMutableBufferPointer(mutating: theirs), emptying: false) {
        CompactCounts.runs(starts, width, $0)
      }
    }
    for (index, cell) in full { add(other.count(index, held: cell), at: index) }
  }

  /// Adds `other`'s cells in the runs of `width` cells from `start * width` for every start of `starts`, as
  /// ``merge(_:each:width:)`` does, and empties them in the same pass. `starts` must hold every run where
  /// `other` has a count (a server load's busy minutes, a reload tally's held pairs): `other` is then all
  /// zero.
  @inlinable
  public mutating func absorb(_ other: inout CompactCounts, each starts: some Sequence<Int>, width: Int) {
    precondition(storage.count == other.storage.count, "merged counts of different shapes")
    let full = other.storage.withUnsafeMutableBufferPointer { theirs in
      addInPlace(theirs, emptying: true) { CompactCounts.runs(starts, width, $0) }
    }
    other.addFull(full, into: &self)
  }

  /// Calls `body` with every index of the runs of `width` cells from `start * width`, for each start.
  @inlinable @inline(__always)
  static func runs(_ starts: some Sequence<Int>, _ width: Int, _ body: (Int) -> Void) {
    for start in starts {
      for index in (start * width)..<((start + 1) * width) { body(index) }
    }
  }

  /// Adds `theirs`' cells at the indices `forEachIndex` walks into these cells, in place while a sum stays
  /// below `Cell.max`, emptying each of theirs when `emptying`; returns the others, with what each of theirs
  /// held, for ``add(_:at:)``. The indices must be in range (checked by the callers' shapes).
  @inlinable @inline(__always)
  mutating func addInPlace(
    _ theirs: UnsafeMutableBufferPointer<Cell>, emptying: Bool, _ forEachIndex: ((Int) -> Void) -> Void
  ) -> [(index: Int, cell: Cell)] {
    precondition(theirs.count == storage.count, "merged counts of different shapes")
    var full: [(index: Int, cell: Cell)] = []
    storage.withUnsafeMutableBufferPointer { mine in
      forEachIndex { index in
        // Most of a phone's cells are zero: nothing to add or to empty.
        guard theirs[index] != 0 else { return }
        // A marked cell on either side, or a sum that would reach the mark: through the side table.
        let sum = UInt64(mine[index]) &+ UInt64(theirs[index])
        if sum < UInt64(Cell.max) {
          mine[index] = Cell(truncatingIfNeeded: sum)
        } else {
          full.append((index, theirs[index]))
        }
        if emptying { theirs[index] = 0 }
      }
    }
    return full
  }

  /// After an absorbing loop emptied this table's cells: adds the counts that could not be added in place
  /// into `sum`, and drops the side table (every cell is zero now).
  @inlinable
  mutating func addFull(_ full: [(index: Int, cell: Cell)], into sum: inout CompactCounts) {
    for (index, cell) in full { sum.add(count(index, held: cell), at: index) }
    large.removeAll(keepingCapacity: true)
  }
}
