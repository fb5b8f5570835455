/// Cell-by-cell sums of the integer arrays in results (checked: a count past its type's range traps rather
/// than wraps). Called with a concrete type, each use is specialised to a plain loop.
///
/// The loop adds wrapping and gathers any overflow into one bit pattern, checked after it, so that it runs
/// in vector registers (a trap inside the loop keeps it to one cell at a time; a replication's dense hourly
/// arrays, push counts above all, are thousands of cells). A sum that overflowed still traps, once the loop
/// is done.
public enum IntegerCells {
  @inlinable @inline(__always)
  public static func add<Cell: FixedWidthInteger>(
    _ mine: UnsafeMutableBufferPointer<Cell>, _ theirs: UnsafeBufferPointer<Cell>
  ) {
    precondition(!addWrapping(mine, theirs), "a count past its type's range")
  }

  /// Adds `theirs` into `mine` cell by cell, wrapping; whether any sum overflowed.
  @inlinable @inline(__always)
  public static func addWrapping<Cell: FixedWidthInteger>(
    _ mine: UnsafeMutableBufferPointer<Cell>, _ theirs: UnsafeBufferPointer<Cell>
  ) -> Bool {
    precondition(mine.count == theirs.count, "cells of different shapes")
    var overflow: Cell = 0
    for index in mine.indices {
      let (a, b) = (mine[index], theirs[index])
      let sum = a &+ b
      // The top bit: signed, the sum has the sign of neither operand; unsigned, the add carried out of it.
      overflow |= Cell.isSigned ? (a ^ sum) & (b ^ sum) : (a & b) | ((a | b) & ~sum)
      mine[index] = sum
    }
    return overflow >> (Cell.bitWidth - 1) & 1 != 0
  }
}
