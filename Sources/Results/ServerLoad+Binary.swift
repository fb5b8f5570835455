import ResultStorage
import SimulationEngine

/// The exact load, for shard files.
extension ServerLoad: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    precondition(pending.isEmpty && openedSlots == minuteCount, "requests not yet applied")
    minuteCount.encode(to: &writer)
    bytes.encode(to: &writer)
    pushesDelivered.encode(to: &writer)
    bySource.encode(to: &writer)
    seconds.encode(to: &writer)
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    self.init()
    minuteCount = try Int(from: &reader)
    bytes = try [Int128](from: &reader)
    pushesDelivered = try [Int64](from: &reader)
    bySource = try CompactCounts(from: &reader)
    seconds = try ServerSeconds(from: &reader)
    openedSlots = minuteCount
    guard minuteCount >= 0, bytes.count == minuteCount, pushesDelivered.count == minuteCount,
      bySource.count == minuteCount * ServerSource.count
    else { throw reader.error("a per-minute load of the wrong size") }
    findBusySlots()
  }
}
