extension FixedWidthInteger {
  /// Calls `body` with the position of each set bit, lowest first: the booked columns of an energy ledger,
  /// the booked cells of app-wake counts, the sources with requests in a server minute.
  @inlinable @inline(__always)
  public func forEachSetBit(_ body: (Int) -> Void) {
    var bits = self
    while bits != 0 {
      body(bits.trailingZeroBitCount)
      bits &= bits &- 1
    }
  }
}
