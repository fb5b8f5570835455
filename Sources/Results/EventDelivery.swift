import ResultStorage
import SimulationEngine

/// How long after a fleet-wide event its pushes took: the server's send (the device's place in the
/// fan-out) and the first push delivered to the device after it, summed and maximised over devices (integers
/// and maxima: any order of devices gives the same figures).
public struct EventDelivery: Sendable, Accumulator {
  /// Occurrences whose push was sent to a device, and the latest send after its occurrence.
  public private(set) var sends = 0
  var lastSendMicros: Int64 = 0
  /// Deliveries, their summed and longest latency after the occurrence.
  public private(set) var deliveries = 0
  var sumDeliveryMicros: Int128 = 0
  var maxDeliveryMicros: Int64 = 0

  public init() {}

  package mutating func sent(after lag: Int64) {
    sends += 1
    lastSendMicros = Swift.max(lastSendMicros, lag)
  }

  package mutating func delivered(after latency: Int64) {
    deliveries += 1
    sumDeliveryMicros += Int128(latency)
    maxDeliveryMicros = Swift.max(maxDeliveryMicros, latency)
  }

  public mutating func merge(_ other: EventDelivery) {
    sends += other.sends
    lastSendMicros = Swift.max(lastSendMicros, other.lastSendMicros)
    deliveries += other.deliveries
    sumDeliveryMicros += other.sumDeliveryMicros
    maxDeliveryMicros = Swift.max(maxDeliveryMicros, other.maxDeliveryMicros)
  }

  /// Seconds from an occurrence to the server's last push of it (the fan-out), over the run.
  public var lastSendSeconds: Double { Double(lastSendMicros) / 1e6 }
  /// Seconds from an occurrence to a device's first push delivery after it: the mean and the longest (the
  /// last device to get it).
  public var meanDeliverySeconds: Double {
    deliveries > 0 ? sumDeliveryMicros.double / 1e6 / Double(deliveries) : .nan
  }
  public var lastDeliverySeconds: Double { deliveries > 0 ? Double(maxDeliveryMicros) / 1e6 : .nan }
}

/// The exact figures, for shard files.
extension EventDelivery: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    sends.encode(to: &writer)
    writer.signed(lastSendMicros)
    deliveries.encode(to: &writer)
    writer.signed(sumDeliveryMicros)
    writer.signed(maxDeliveryMicros)
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    self.init()
    sends = try Int(from: &reader)
    lastSendMicros = try reader.signed()
    deliveries = try Int(from: &reader)
    sumDeliveryMicros = try reader.signed128()
    maxDeliveryMicros = try reader.signed()
  }
}
