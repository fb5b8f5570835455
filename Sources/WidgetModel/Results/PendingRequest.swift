import SimulationEngine

/// A request to the app's servers as a device records it: its UTC time, bytes fetched, ``ServerSource`` and
/// whether it is a push's delivery rather than a request.
struct PendingRequest {
  let utcMicros: Int64
  let bytes: Int64
  let source: UInt8
  let delivered: Bool

  init(utcMicros: Int64, bytes: Int64, source: UInt8, delivered: Bool) {
    self.utcMicros = utcMicros
    self.bytes = bytes
    self.source = source
    self.delivered = delivered
  }

  /// A request of `source` at local time `time` on a device `offset` ahead of UTC, fetching `amount` bytes.
  @inline(__always)
  init(_ source: ServerSource, bytes amount: Double, at time: SimTime, offset: SimDuration, delivered: Bool) {
    utcMicros = time.microseconds - offset.microseconds
    bytes = Int64(clampedNearest: amount)
    self.source = UInt8(source.rawValue)
    self.delivered = delivered
  }
}
