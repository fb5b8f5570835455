import SimulationEngine

/// One phone's own figures, written down by the phone as they happen: each measured hour's close (its state
/// of charge), and at its end its reloads, staleness and joules. Never the aggregate after the phone ran
/// minus the aggregate before: such a difference counts whatever else changed the aggregate (a warm-up,
/// another phone). `devices.csv` and every other per-device report (``DeviceReport``) read it, through
/// ``DeviceSummary``.
///
/// A per-device figure that follows the hours (a daily minimum, say) is one more field here, filled in
/// ``closeHour(_:stateOfChargePPM:)``, and its encoding below (shard files carry the records).
public struct DeviceRecord: Sendable {
  /// The measured hours (of the run's): the hours before them are the warm-up's, which no figure counts.
  public let measuredHours: Range<Int>
  /// The lowest state of charge at the close of a measured hour, in millionths (as the run's hourly figures
  /// add it up); `Int64.max` until an hour closes.
  public private(set) var minimumStateOfChargePPM = Int64.max
  /// Reloads that ran per measured day, all widgets of the phone.
  public private(set) var reloadsPerDay = Double.nan
  /// The p95 of the staleness its views saw in seconds; NaN without a measured view.
  public private(set) var stalenessP95Seconds = Double.nan
  /// What the app's widgets, pushes, activities and runs cost the phone per measured day.
  public private(set) var joulesPerDay = Double.nan

  public init(measuredHours: Range<Int>) {
    self.measuredHours = measuredHours
  }

  /// The phone's lowest state of charge over the measured hours (a fraction); infinity before any closed.
  public var minimumStateOfCharge: Double {
    minimumStateOfChargePPM == .max ? .infinity : Double(minimumStateOfChargePPM) / 1e6
  }

  /// Hour `hourIndex` closed with the battery at `stateOfChargePPM` millionths.
  mutating func closeHour(_ hourIndex: Int, stateOfChargePPM: Int64) {
    guard measuredHours.contains(hourIndex) else { return }
    minimumStateOfChargePPM = Swift.min(minimumStateOfChargePPM, stateOfChargePPM)
  }

  /// The phone's totals at its end, each kept in millionths as the fleet's sums of them are
  /// (``DeviceDistributions``): a phone's figure is then exactly its part of the run's.
  mutating func close(
    reloadsPerDay reloads: Double, stalenessP95Seconds staleness: Double?, joulesPerDay joules: Double
  ) {
    reloadsPerDay = DeviceRecord.millionths(reloads)
    stalenessP95Seconds = staleness.map(DeviceRecord.millionths) ?? .nan
    joulesPerDay = DeviceRecord.millionths(joules)
  }

  static func millionths(_ value: Double) -> Double {
    Double(Int64(clampedNearest: value * 1e6)) / 1e6
  }
}

/// A phone's record, for shard files.
extension DeviceRecord: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    measuredHours.lowerBound.encode(to: &writer)
    measuredHours.upperBound.encode(to: &writer)
    writer.signed(minimumStateOfChargePPM)
    for value in [reloadsPerDay, stalenessP95Seconds, joulesPerDay] { writer.double(value) }
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    let first = try Int(from: &reader)
    let end = try Int(from: &reader)
    guard first >= 0, end >= first else { throw reader.error("measured hours \(first)..<\(end)") }
    measuredHours = first..<end
    minimumStateOfChargePPM = try reader.signed()
    reloadsPerDay = try reader.double()
    stalenessP95Seconds = try reader.double()
    joulesPerDay = try reader.double()
  }
}
