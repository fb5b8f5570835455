import ResultStorage
import SimulationEngine
import Statistics

/// How long after a fleet-wide event its pushes took: the server's send (the device's place in the
/// fan-out) and the first push delivered to the device after it, summed and maximised over devices, counted
/// within a minute, 10 minutes and an hour, and sketched for the median (integers and maxima: any order of
/// devices gives the same figures). A mean over devices is dominated by the phones asleep until morning; the
/// median and the shares within a time say how fast most phones learn of it.
public struct EventDelivery: Sendable, Accumulator {
  /// Occurrences whose push was sent to a device, and the latest send after its occurrence.
  public private(set) var sends = 0
  var lastSendMicros: Int64 = 0
  /// Deliveries, their summed and longest latency after the occurrence.
  public private(set) var deliveries = 0
  var sumDeliveryMicros: Int128 = 0
  var maxDeliveryMicros: Int64 = 0
  /// Deliveries within each of ``deliveryLimitsSeconds`` of the occurrence (three counts, no array: a
  /// device's result is emptied for reuse without allocating).
  var deliveredWithin: (minute: Int, tenMinutes: Int, hour: Int) = (0, 0, 0)
  /// Every delivery's latency in seconds, for the median (within 0.5%).
  public private(set) var deliverySeconds = QuantileSketch()

  /// The times, in minutes, the shares of deliveries are counted within.
  public static let deliveryLimitsMinutes = [1, 10, 60]

  public init() {}

  package mutating func sent(after lag: Int64) {
    sends += 1
    lastSendMicros = Swift.max(lastSendMicros, lag)
  }

  package mutating func delivered(after latency: Int64) {
    deliveries += 1
    sumDeliveryMicros += Int128(latency)
    maxDeliveryMicros = Swift.max(maxDeliveryMicros, latency)
    if latency <= 60_000_000 { deliveredWithin.minute += 1 }
    if latency <= 600_000_000 { deliveredWithin.tenMinutes += 1 }
    if latency <= 3_600_000_000 { deliveredWithin.hour += 1 }
    deliverySeconds.add(Double(latency) / 1e6)
  }

  public mutating func merge(_ other: EventDelivery) {
    sends += other.sends
    lastSendMicros = Swift.max(lastSendMicros, other.lastSendMicros)
    deliveries += other.deliveries
    sumDeliveryMicros += other.sumDeliveryMicros
    maxDeliveryMicros = Swift.max(maxDeliveryMicros, other.maxDeliveryMicros)
    deliveredWithin.minute += other.deliveredWithin.minute
    deliveredWithin.tenMinutes += other.deliveredWithin.tenMinutes
    deliveredWithin.hour += other.deliveredWithin.hour
    deliverySeconds.merge(other.deliverySeconds)
  }

  /// Seconds from an occurrence to the server's last push of it (the fan-out), over the run.
  public var lastSendSeconds: Double { Double(lastSendMicros) / 1e6 }
  /// Seconds from an occurrence to a device's first push delivery after it: the mean and the longest (the
  /// last device to get it).
  public var meanDeliverySeconds: Double {
    deliveries > 0 ? sumDeliveryMicros.double / 1e6 / Double(deliveries) : .nan
  }
  /// The longest is the simulated phones' maximum: it grows with their number (one more phone can only
  /// make it later), so it is a sample's figure, not the fleet's.
  public var lastDeliverySeconds: Double { deliveries > 0 ? Double(maxDeliveryMicros) / 1e6 : .nan }
  /// The median latency of the deliveries (within 0.5%).
  public var medianDeliverySeconds: Double { deliveries > 0 ? deliverySeconds.quantile(0.5) : .nan }
  /// The share of deliveries within `minutes` (one of ``deliveryLimitsMinutes``) of the occurrence.
  public func deliveredShare(withinMinutes minutes: Int) -> Double {
    guard deliveries > 0 else { return .nan }
    let count =
      switch minutes {
      case 1: deliveredWithin.minute
      case 10: deliveredWithin.tenMinutes
      case 60: deliveredWithin.hour
      default: preconditionFailure("no count of deliveries within \(minutes) minutes")
      }
    return Double(count) / Double(deliveries)
  }
}

/// The exact figures, for shard files.
extension EventDelivery: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    sends.encode(to: &writer)
    writer.signed(lastSendMicros)
    deliveries.encode(to: &writer)
    writer.signed(sumDeliveryMicros)
    writer.signed(maxDeliveryMicros)
    for count in [deliveredWithin.minute, deliveredWithin.tenMinutes, deliveredWithin.hour] {
      count.encode(to: &writer)
    }
    deliverySeconds.encode(to: &writer)
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    self.init()
    sends = try Int(from: &reader)
    lastSendMicros = try reader.signed()
    deliveries = try Int(from: &reader)
    sumDeliveryMicros = try reader.signed128()
    maxDeliveryMicros = try reader.signed()
    deliveredWithin = (try Int(from: &reader), try Int(from: &reader), try Int(from: &reader))
    deliverySeconds = try QuantileSketch(from: &reader)
  }
}
