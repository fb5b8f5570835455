import SimulationEngine

/// Element by element; emptied in place. A result's fields are reached through an existential
/// (`any ResultField` in `Results`), where even a `@_specialize`d generic loop called a witness for every
/// element's add (and for the loop's index): the integer arrays results are made of go through a loop
/// specialised for their type (``IntegerCells``) instead.
extension Array: Accumulator where Element: Accumulator {
  @inlinable
  public mutating func merge(_ other: [Element]) {
    precondition(count == other.count, "merged accumulators of different shapes")
    // Metatypes compared, not cast: `is Int64.Type` asks the runtime, several times a replication per array.
    switch ObjectIdentifier(Element.self) {
    case ObjectIdentifier(Int64.self): withCells(other, as: Int64.self, IntegerCells.add)
    case ObjectIdentifier(UInt64.self): withCells(other, as: UInt64.self, IntegerCells.add)
    case ObjectIdentifier(Int.self): withCells(other, as: Int.self, IntegerCells.add)
    case ObjectIdentifier(Int32.self): withCells(other, as: Int32.self, IntegerCells.add)
    case ObjectIdentifier(Int128.self): withCells(other, as: Int128.self, IntegerCells.add)
    default:
      withUnsafeMutableBufferPointer { mine in
        other.withUnsafeBufferPointer { theirs in
          for index in mine.indices { mine[index].merge(theirs[index]) }
        }
      }
    }
  }

  @inlinable
  public mutating func reset() {
    // An empty array may be the shared empty storage: made unique, it would be allocated to be emptied.
    guard !isEmpty else { return }
    switch ObjectIdentifier(Element.self) {
    case ObjectIdentifier(Int64.self), ObjectIdentifier(UInt64.self), ObjectIdentifier(Int.self),
      ObjectIdentifier(Int32.self), ObjectIdentifier(Int128.self):
      // An integer's empty value is all zero bytes.
      withUnsafeMutableBytes { $0.zeroBytes() }
    default:
      withUnsafeMutableBufferPointer { mine in
        for index in mine.indices { mine[index].reset() }
      }
    }
  }

  /// This array's and `other`'s elements as `Cell`s, which they are (checked by the caller).
  @inlinable
  mutating func withCells<Cell>(
    _ other: [Element], as _: Cell.Type, _ body: (UnsafeMutableBufferPointer<Cell>, UnsafeBufferPointer<Cell>) -> Void
  ) {
    precondition(Element.self == Cell.self, "cells of another type")
    withUnsafeMutableBufferPointer { mine in
      other.withUnsafeBufferPointer { theirs in
        body(
          UnsafeMutableBufferPointer(
            start: UnsafeMutableRawPointer(mine.baseAddress)?.assumingMemoryBound(to: Cell.self), count: mine.count),
          UnsafeBufferPointer(
            start: UnsafeRawPointer(theirs.baseAddress)?.assumingMemoryBound(to: Cell.self), count: theirs.count))
      }
    }
  }
}

/// Each day (or hour, or minute) is the same number of elements.
extension Array: TimeSeries where Element: Accumulator {
  @inlinable
  public mutating func dropFirst(days: Int, of total: Int) {
    guard days > 0, total > 0 else { return }
    removeFirst(count / total * days)
  }
}

/// Integer cells, whose zero is all zero bytes: a day is emptied with one `memset` (the field is reached
/// through an existential, where a generic loop would cost a witness-table call per cell).
extension Array: DayCleared where Element: Accumulator & FixedWidthInteger {
  @inlinable
  public mutating func clear(days: Range<Int>, of total: Int) {
    guard !days.isEmpty, total > 0 else { return }
    let bytesPerDay = count / total * MemoryLayout<Element>.stride
    withUnsafeMutableBytes { bytes in
      let cleared = UnsafeMutableRawBufferPointer(
        rebasing: bytes[(days.lowerBound * bytesPerDay)..<(days.upperBound * bytesPerDay)])
      cleared.zeroBytes()
    }
  }

  @inlinable public mutating func resetAllButDays() {}
}

extension Array where Element: Accumulator {
  /// `count` empty elements.
  @inlinable public static func empty(_ count: Int) -> [Element] { Array(repeating: Element(), count: count) }
}
