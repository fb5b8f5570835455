import SimulationEngine

/// Non-negative integer counts in small cells: a cell holds its count while it fits below `Cell.max`; past
/// that it is marked `Cell.max` and its count lives in a side table. Exact (no count is ever lost or
/// rounded), and small where counts are small, which most seconds of a run are.
struct CompactCounts<Cell: FixedWidthInteger & UnsignedInteger & Sendable>: Sendable, Equatable {
  private(set) var cells: [Cell]
  /// The counts of marked cells, by index.
  private var large: [Int: UInt64] = [:]

  init(count: Int) {
    // Narrower than 64 bits: a merge adds two cells in 64 bits without wrapping.
    precondition(Cell.bitWidth < 64, "compact counts need cells narrower than their 64-bit sums")
    cells = Array(repeating: 0, count: count)
  }

  var count: Int { cells.count }

  subscript(index: Int) -> UInt64 {
    let cell = cells[index]
    return cell == Cell.max ? large[index, default: 0] : UInt64(cell)
  }

  @inline(__always)
  mutating func add(_ amount: UInt64, at index: Int) {
    let cell = cells[index]
    if cell != Cell.max, amount < UInt64(Cell.max - cell) {
      cells[index] = cell + Cell(amount)
      return
    }
    large[index] = self[index] &+ amount
    cells[index] = Cell.max
  }

  /// Adds `count` amounts, the `position`th at the cell `entry(position)` names (nil: nothing), through the
  /// cells' memory in one tight loop: a batch of adds to cells far apart waits for its cache misses together.
  /// The same as calling ``add(_:at:)`` for each in order.
  @inline(__always)
  mutating func addEach(_ count: Int, _ entry: (Int) -> (index: Int, amount: UInt64)?) {
    // A cell that would pass `Cell.max` goes to the side table after the loop; later adds to it in this batch
    // find it unchanged and follow it there, so the counts come out exactly as added one by one.
    var full: [(index: Int, amount: UInt64)] = []
    cells.withUnsafeMutableBufferPointer { cells in
      for position in 0..<count {
        guard let (index, amount) = entry(position) else { continue }
        let cell = cells[index]
        if cell != Cell.max, amount < UInt64(Cell.max - cell) {
          cells[index] = cell + Cell(truncatingIfNeeded: amount)
        } else {
          full.append((index, amount))
        }
      }
    }
    for (index, amount) in full { add(amount, at: index) }
  }

  /// The first cell at or after `start` that is not zero (a marked cell is not: it holds a large count); nil
  /// when none is. Eight bytes at a time: a reader skips a run's quiet stretches without reading them cell
  /// by cell.
  func firstNonZero(from start: Int) -> Int? {
    precondition(start >= 0, "cell \(start)")
    return cells.withUnsafeBytes { bytes in
      let stride = MemoryLayout<Cell>.stride
      var offset = start * stride
      while offset + 8 <= bytes.count {
        // Little-endian order: the lowest byte is the first in memory.
        let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        if word != 0 { return (offset + word.trailingZeroBitCount / 8) / stride }
        offset += 8
      }
      while offset < bytes.count {
        if bytes[offset] != 0 { return offset / stride }
        offset += 1
      }
      return nil
    }
  }

  /// Bit `offset` set for each of the `count` cells from `start` that is not zero (at most 64): a reader
  /// takes a second's few requests without reading each source's count.
  @inline(__always)
  func nonzeroCells(from start: Int, count: Int) -> UInt64 {
    cells.withUnsafeBufferPointer { CompactCounts.nonzeroCells($0, from: start, count: count) }
  }

  /// ``nonzeroCells(from:count:)`` of cells already in hand (a reader walking many runs).
  @inline(__always)
  static func nonzeroCells(_ cells: UnsafeBufferPointer<Cell>, from start: Int, count: Int) -> UInt64 {
    precondition(start >= 0 && count <= 64 && start + count <= cells.count, "cells \(start)+\(count)")
    var mask: UInt64 = 0
    for offset in 0..<count where cells[start + offset] != 0 { mask |= 1 &<< UInt64(offset) }
    return mask
  }

  /// Whether the `count` cells from `start` are all zero (a marked cell is not: it holds a large count).
  @inline(__always)
  func isZero(_ start: Int, count: Int) -> Bool {
    cells.withUnsafeBufferPointer { cells in
      var any: Cell = 0
      for index in start..<(start + count) { any |= cells[index] }
      return any == 0
    }
  }

  // Results reach their fields through `any ResultField`, where the generic version would run at a
  // witness-table call per cell.
  @_specialize(where Cell == UInt32)
  @_specialize(where Cell == UInt8)
  mutating func merge(_ other: CompactCounts) {
    precondition(cells.count == other.cells.count, "merged counts of different shapes")
    // The common case, no cell reaching `Cell.max` (marked or full): two plain loops the compiler vectorises,
    // one that looks and one that adds, instead of a branch per cell.
    let fits = cells.withUnsafeBufferPointer { mine in
      other.cells.withUnsafeBufferPointer { theirs in
        var largest: UInt64 = 0
        for index in mine.indices { largest = Swift.max(largest, UInt64(mine[index]) &+ UInt64(theirs[index])) }
        return largest < UInt64(Cell.max)
      }
    }
    if fits {
      cells.withUnsafeMutableBufferPointer { mine in
        other.cells.withUnsafeBufferPointer { theirs in
          for index in mine.indices { mine[index] &+= theirs[index] }
        }
      }
      return
    }
    other.cells.withUnsafeBufferPointer { theirs in
      for index in theirs.indices where theirs[index] != 0 {
        let amount = theirs[index] == Cell.max ? other.large[index, default: 0] : UInt64(theirs[index])
        add(amount, at: index)
      }
    }
  }

  /// Adds `other`'s cells in the runs of `width` cells from `start * width` for every start of `starts`
  /// (``ServerLoad``'s busy minutes, ``ReloadTally``'s held pairs), in one pass: in place while a sum stays
  /// below `Cell.max`, through ``add(_:at:)`` otherwise.
  mutating func merge(_ other: CompactCounts, each starts: some Sequence<Int>, width: Int) {
    precondition(cells.count == other.cells.count, "merged counts of different shapes")
    let full = other.cells.withUnsafeBufferPointer { theirs in
      // Read only: not emptying, nothing is written through it.
      addInPlace(UnsafeMutableBufferPointer(mutating: theirs), emptying: false) {
        CompactCounts.runs(starts, width, $0)
      }
    }
    for (index, cell) in full { add(other.count(index, held: cell), at: index) }
  }

  /// Adds `other`'s cells in the runs of `width` cells from `start * width` for every start of `starts`, as
  /// ``merge(_:each:width:)`` does, and empties them in the same pass. `starts` must hold every run where
  /// `other` has a count (``ServerLoad``'s busy minutes, ``ReloadTally``'s held pairs): `other` is then all zero.
  mutating func absorb(_ other: inout CompactCounts, each starts: some Sequence<Int>, width: Int) {
    precondition(cells.count == other.cells.count, "merged counts of different shapes")
    let full = other.cells.withUnsafeMutableBufferPointer { theirs in
      addInPlace(theirs, emptying: true) { CompactCounts.runs(starts, width, $0) }
    }
    other.addFull(full, into: &self)
  }

  /// Calls `body` with every index of the runs of `width` cells from `start * width`, for each start.
  @inline(__always)
  private static func runs(_ starts: some Sequence<Int>, _ width: Int, _ body: (Int) -> Void) {
    for start in starts {
      for index in (start * width)..<((start + 1) * width) { body(index) }
    }
  }

  /// Adds `theirs`' cells at the indices `forEachIndex` walks into these cells, in place while a sum stays
  /// below `Cell.max`, emptying each of theirs when `emptying`; returns the others, with what each of theirs
  /// held, for ``add(_:at:)``. The indices must be in range (checked by the callers' shapes).
  @inline(__always)
  private mutating func addInPlace(
    _ theirs: UnsafeMutableBufferPointer<Cell>, emptying: Bool, _ forEachIndex: ((Int) -> Void) -> Void
  ) -> [(index: Int, cell: Cell)] {
    precondition(theirs.count == cells.count, "merged counts of different shapes")
    var full: [(index: Int, cell: Cell)] = []
    cells.withUnsafeMutableBufferPointer { mine in
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

  /// The count of the cell at `index`, which held `cell` (``Cell.max``: its count is in the side table).
  private func count(_ index: Int, held cell: Cell) -> UInt64 {
    cell == Cell.max ? large[index, default: 0] : UInt64(cell)
  }

  /// After an absorbing loop emptied this table's cells: adds the counts that could not be added in place
  /// into `sum`, and drops the side table (every cell is zero now).
  private mutating func addFull(_ full: [(index: Int, cell: Cell)], into sum: inout CompactCounts) {
    for (index, cell) in full { sum.add(count(index, held: cell), at: index) }
    large.removeAll(keepingCapacity: true)
  }

  /// The first cell holding a count (marked cells included) whose index `matches`, if any.
  func firstNonZero(where matches: (Int) -> Bool) -> Int? {
    cells.indices.first { cells[$0] != 0 && matches($0) }
  }

  /// Empties the `width` cells from `start * width` for every start of `starts` (busy minutes of
  /// ``ServerLoad``).
  mutating func zero(each starts: some Sequence<Int>, width: Int) {
    // A marked cell exists only while the side table holds its count: without one, plain stores.
    let checks = !large.isEmpty
    var marked: [Int] = []
    cells.withUnsafeMutableBufferPointer { cells in
      for start in starts {
        for index in (start * width)..<((start + 1) * width) {
          if checks, cells[index] == Cell.max { marked.append(index) }
          cells[index] = 0
        }
      }
    }
    for index in marked { large[index] = nil }
  }

  mutating func reset() {
    cells.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    large.removeAll(keepingCapacity: true)
  }

  /// Drops the first `n` cells (the rest move down).
  mutating func dropFirst(_ n: Int) {
    cells.removeFirst(n)
    var moved: [Int: UInt64] = [:]
    for (index, value) in large where index >= n { moved[index - n] = value }
    large = moved
  }
}

/// Counts over time in a result (a server load's requests by minute and source): day-major, emptied day by day.
extension CompactCounts: Accumulator, TimeSeries, DayCleared where Cell: BinaryCodable {
  init() {
    self.init(count: 0)
  }

  mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, total > 0 else { return }
    dropFirst(count / total * days)
  }

  mutating func clear(days: Range<Int>, of total: Int) {
    guard !days.isEmpty, total > 0 else { return }
    let perDay = count / total
    let range = (days.lowerBound * perDay)..<(days.upperBound * perDay)
    // All zero bytes, set at once (a generic element loop would not be specialised here).
    cells.withUnsafeMutableBytes { bytes in
      let stride = MemoryLayout<Cell>.stride
      UnsafeMutableRawBufferPointer(rebasing: bytes[(range.lowerBound * stride)..<(range.upperBound * stride)])
        .zeroBytes()
    }
    // Only days emptied since a reset are cleared, and a reset dropped every large count: none is in `range`.
  }

  mutating func resetAllButDays() {
    large.removeAll(keepingCapacity: true)
  }

  /// Empties the cells `range` of each run of `width` cells from `start * width`, for every start of
  /// `starts` (a reload tally's hours of the pairs it may hold; every other run is known to be zero).
  mutating func clear(_ range: Range<Int>, ofRuns starts: some Sequence<Int>, width: Int) {
    guard !range.isEmpty else { return }
    precondition(range.lowerBound >= 0 && range.upperBound <= width, "cells \(range) of runs of \(width)")
    cells.withUnsafeMutableBufferPointer { cells in
      for start in starts {
        UnsafeMutableBufferPointer(
          rebasing: cells[(start * width + range.lowerBound)..<(start * width + range.upperBound)]
        )
        .update(repeating: 0)
      }
    }
    // Only days emptied since a reset are cleared, and a reset dropped every large count: none is in `range`.
  }

  /// Drops the first `n` cells of each run of `width` cells (the rest of each run move down).
  mutating func dropFirst(_ n: Int, ofRunsOf width: Int) {
    guard n > 0 else { return }
    precondition(n <= width && width > 0 && count % width == 0, "\(n) cells of runs of \(width)")
    let kept = width - n
    var movedLarge: [Int: UInt64] = [:]
    for (index, value) in large where index % width >= n {
      movedLarge[index / width * kept + index % width - n] = value
    }
    cells = cells.droppingFirst(n, ofRunsOf: width)
    large = movedLarge
  }

  /// The same counts with runs and positions swapped: the cell `position` of run `run` (of `runs` runs of
  /// `width` cells) moves to cell `run` of run `position` (of `width` runs of `runs` cells).
  func transposed(runs: Int, width: Int) -> CompactCounts {
    var swapped = self
    swapped.cells = cells.transposed(runs: runs, width: width)
    swapped.large = [:]
    for (index, value) in large { swapped.large[index % width * runs + index / width] = value }
    return swapped
  }
}

/// The exact counts, for shard files.
extension CompactCounts: BinaryCodable where Cell: BinaryCodable {
  func encode(to writer: inout BinaryWriter) {
    cells.encode(to: &writer)
    writer.unsigned(UInt64(large.count))
    for (index, value) in large.sorted(by: { $0.key < $1.key }) {
      writer.unsigned(UInt64(index))
      writer.unsigned(value)
    }
  }

  init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    cells = try [Cell](from: &reader)
    let entries = try reader.count(minimumBytes: 2)
    for _ in 0..<entries {
      let index = try reader.unsigned()
      guard index < UInt64(cells.count), cells[Int(index)] == Cell.max else {
        throw reader.error("a large count for cell \(index), which is not marked")
      }
      large[Int(index)] = try reader.unsigned()
    }
  }
}
