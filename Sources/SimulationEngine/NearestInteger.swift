extension Int64 {
  /// The integer nearest to `value`, halves away from zero; `value` must be within ±9.2e18.
  ///
  /// Adding a signed half and truncating is one conversion instruction, where `rounded()` is a call into
  /// the C library: this sits on the hot path of every energy and duration conversion.
  @inlinable @inline(__always)
  public init(nearest value: Double) {
    self = Int64(value + (value < 0 ? -0.5 : 0.5))
  }
}
