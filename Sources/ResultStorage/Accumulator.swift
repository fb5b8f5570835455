import SimulationEngine

/// A part of a replication's result that adds up across devices (in any order, to the same bits) and can be
/// emptied for another run without giving back its memory.
public protocol Accumulator: Sendable, BinaryCodable {
  /// The empty value.
  init()
  mutating func merge(_ other: Self)
  mutating func reset()
  /// Adds `other` as ``merge(_:)`` does and may empty what it added, in the same pass: `other` is then part
  /// emptied, to be emptied for reuse before anything reads it (a replication's result absorbing a
  /// device's). Emptying it there leaves less for its reuse to empty, each cell touched once while it is in
  /// the cache.
  mutating func absorb(_ other: inout Self)
}

extension Accumulator {
  @inlinable public mutating func reset() { self = Self() }
  /// Merges; `other` keeps its counts (its reuse empties them, as after a merge).
  @inlinable public mutating func absorb(_ other: inout Self) { merge(other) }
}

extension Accumulator where Self: FixedWidthInteger {
  @inlinable @inline(__always) public mutating func merge(_ other: Self) { self += other }
  @inlinable @inline(__always) public mutating func reset() { self = 0 }
}

extension Int: Accumulator {}
extension Int32: Accumulator {}
extension Int64: Accumulator {}
extension UInt64: Accumulator {}
extension Int128: Accumulator {}
