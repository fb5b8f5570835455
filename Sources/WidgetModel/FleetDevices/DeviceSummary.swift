import Results
import SimulationEngine

/// One device's row of the per-device reports (``DeviceReport``): who it is (its index, time zone, widgets
/// and battery as drawn) and what it recorded itself as it ran (``DeviceRecord``).
public struct DeviceSummary: Sendable {
  public let device: Int
  public let clockOffsetHours: Double
  public let widgetsInstalled: Int
  /// The phone's own battery (after `fleet.vary`), to give its energy in % of it.
  public let batteryCapacityJoules: Double
  /// What the phone wrote down as it ran.
  public let record: DeviceRecord

  public var reloadsPerDay: Double { record.reloadsPerDay }
  public var stalenessP95Seconds: Double { record.stalenessP95Seconds }
  /// What the app's widgets, pushes and activities cost the phone a day.
  public var joulesPerDay: Double { record.joulesPerDay }
  /// The phone's lowest state of charge over the measured hours.
  public var minimumStateOfCharge: Double { record.minimumStateOfCharge }
}

/// One device's figures, for shard files.
extension DeviceSummary: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    device.encode(to: &writer)
    widgetsInstalled.encode(to: &writer)
    writer.double(clockOffsetHours)
    writer.double(batteryCapacityJoules)
    record.encode(to: &writer)
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    device = try Int(from: &reader)
    widgetsInstalled = try Int(from: &reader)
    clockOffsetHours = try reader.double()
    batteryCapacityJoules = try reader.double()
    record = try DeviceRecord(from: &reader)
  }
}

extension DeviceSummary {
  /// Device `device`'s row: `drawn` is the device as drawn (its own configuration, after `fleet.vary`: its
  /// battery), `record` what it recorded.
  init(device: Int, drawn: FleetDevice, record: DeviceRecord) {
    let configuration = drawn.configuration
    self.init(
      device: device, clockOffsetHours: drawn.clockOffset.seconds / 3_600,
      widgetsInstalled: configuration.instances.filter { drawn.installed[$0.widgetIndex] }.count,
      batteryCapacityJoules: configuration.device.battery.capacityJoules, record: record)
  }
}
