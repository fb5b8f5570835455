import SimulationEngine

/// A request to the app's servers as a device records it: its UTC time, bytes fetched, ``ServerSource``,
/// whether it is a push's delivery rather than a request, and whether the same phone made a request of the
/// same source in the same UTC second already (its widgets reloading together: one phone, not another).
@usableFromInline package struct PendingRequest: Sendable {
  @usableFromInline let utcMicros: Int64
  @usableFromInline let bytes: Int64
  @usableFromInline let source: UInt8
  @usableFromInline let delivered: Bool
  @usableFromInline var repeated = false

  package init(utcMicros: Int64, bytes: Int64, source: UInt8, delivered: Bool, repeated: Bool = false) {
    self.utcMicros = utcMicros
    self.bytes = bytes
    self.source = source
    self.delivered = delivered
    self.repeated = repeated
  }

  /// A request of `source` at local time `time` on a device `offset` ahead of UTC, fetching `amount` bytes.
  @inlinable @inline(__always)
  package init(_ source: ServerSource, bytes amount: Double, at time: SimTime, offset: SimDuration, delivered: Bool) {
    utcMicros = time.microseconds - offset.microseconds
    bytes = Int64(clampedNearest: amount)
    self.source = UInt8(source.rawValue)
    self.delivered = delivered
  }
}
