extension Int128 {
  /// The nearest `Double`, quickly: the standard library's generic conversion from a 128-bit integer is
  /// slow, and report and summary code convert per cell. A value that fits in 64 bits (every realistic sum)
  /// converts through `Int64` exactly as that conversion would, and a larger one from its two halves (at
  /// most one rounding more).
  @inlinable public var double: Double {
    let low = Int64(truncatingIfNeeded: self)
    if Int128(low) == self { return Double(low) }
    let high = Int64(truncatingIfNeeded: self >> 64)
    return Double(high) * 0x1p64 + Double(UInt64(truncatingIfNeeded: self))
  }
}
