extension Int64 {
  /// The integer nearest to `value`, halves away from zero; `value` must be within ±9.2e18.
  ///
  /// Adding a signed half and truncating is one conversion instruction, where `rounded()` is a call into
  /// the C library: this sits on the hot path of every energy and duration conversion.
  @inlinable @inline(__always)
  public init(nearest value: Double) {
    self = Int64(value + (value < 0 ? -0.5 : 0.5))
  }

  /// The integer nearest to `value`, clamped to ±2^62 (NaN gives 0): for amounts that could come from an
  /// absurd draw, where a trap would be a crash.
  @inlinable @inline(__always)
  public init(clampedNearest value: Double) {
    let limit = 4_611_686_018_427_387_904.0  // 2^62
    self = value.isNaN ? 0 : Int64(nearest: Swift.min(Swift.max(value, -limit), limit))
  }
}
