import SimulationEngine

/// Non-negative integer counts in small cells: a cell holds its count while it fits below `Cell.max`; past
/// that it is marked `Cell.max` and its count lives in a side table. Exact (no count is ever lost or
/// rounded), and small where counts are small, which most seconds of a run are.
public struct CompactCounts<Cell: FixedWidthInteger & UnsignedInteger & Sendable>: Sendable, Equatable {
  @usableFromInline var storage: [Cell]
  /// The counts of marked cells, by index.
  @usableFromInline var large: [Int: UInt64] = [:]

  @inlinable
  public init(count: Int) {
    // Narrower than 64 bits: a merge adds two cells in 64 bits without wrapping.
    precondition(Cell.bitWidth < 64, "compact counts need cells narrower than their 64-bit sums")
    storage = Array(repeating: 0, count: count)
  }

  /// The cells as held: a count, or `Cell.max` for a count in the side table.
  @inlinable public var cells: [Cell] { storage }

  @inlinable public var count: Int { storage.count }

  @inlinable
  public subscript(index: Int) -> UInt64 {
    let cell = storage[index]
    return cell == Cell.max ? large[index, default: 0] : UInt64(cell)
  }

  @inlinable @inline(__always)
  public mutating func add(_ amount: UInt64, at index: Int) {
    let cell = storage[index]
    if cell != Cell.max, amount < UInt64(Cell.max - cell) {
      storage[index] = cell + Cell(amount)
      return
    }
    large[index] = self[index] &+ amount
    storage[index] = Cell.max
  }

  /// Adds `count` amounts, the `position`th at the cell `entry(position)` names (nil: nothing), through the
  /// cells' memory in one tight loop: a batch of adds to cells far apart waits for its cache misses together.
  /// The same as calling ``add(_:at:)`` for each in order.
  @inlinable @inline(__always)
  public mutating func addEach(_ count: Int, _ entry: (Int) -> (index: Int, amount: UInt64)?) {
    // A cell that would pass `Cell.max` goes to the side table after the loop; later adds to it in this batch
    // find it unchanged and follow it there, so the counts come out exactly as added one by one.
    var full: [(index: Int, amount: UInt64)] = []
    storage.withUnsafeMutableBufferPointer { cells in
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
  @inlinable
  public func firstNonZero(from start: Int) -> Int? {
    precondition(start >= 0, "cell \(start)")
    return storage.withUnsafeBytes { bytes in
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
  @inlinable @inline(__always)
  public func nonzeroCells(from start: Int, count: Int) -> UInt64 {
    storage.withUnsafeBufferPointer { CompactCounts.nonzeroCells($0, from: start, count: count) }
  }

  /// ``nonzeroCells(from:count:)`` of cells already in hand (a reader walking many runs).
  @inlinable @inline(__always)
  public static func nonzeroCells(_ cells: UnsafeBufferPointer<Cell>, from start: Int, count: Int) -> UInt64 {
    precondition(start >= 0 && count <= 64 && start + count <= cells.count, "cells \(start)+\(count)")
    var mask: UInt64 = 0
    for offset in 0..<count where cells[start + offset] != 0 { mask |= 1 &<< UInt64(offset) }
    return mask
  }

  /// Whether the `count` cells from `start` are all zero (a marked cell is not: it holds a large count).
  @inlinable @inline(__always)
  public func isZero(_ start: Int, count: Int) -> Bool {
    storage.withUnsafeBufferPointer { cells in
      var any: Cell = 0
      for index in start..<(start + count) { any |= cells[index] }
      return any == 0
    }
  }

  /// The first cell holding a count (marked cells included) whose index `matches`, if any.
  @inlinable
  public func firstNonZero(where matches: (Int) -> Bool) -> Int? {
    storage.indices.first { storage[$0] != 0 && matches($0) }
  }

  @inlinable
  public mutating func reset() {
    storage.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    large.removeAll(keepingCapacity: true)
  }

  /// Drops the first `n` cells (the rest move down).
  @inlinable
  public mutating func dropFirst(_ n: Int) {
    storage.removeFirst(n)
    var moved: [Int: UInt64] = [:]
    for (index, value) in large where index >= n { moved[index - n] = value }
    large = moved
  }

  /// The count of the cell at `index`, which held `cell` (``Cell.max``: its count is in the side table).
  @inlinable
  func count(_ index: Int, held cell: Cell) -> UInt64 {
    cell == Cell.max ? large[index, default: 0] : UInt64(cell)
  }
}
