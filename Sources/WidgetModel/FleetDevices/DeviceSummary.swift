import Results
import SimulationEngine

/// One device's own figures, for `devices.csv`.
public struct DeviceSummary: Sendable {
  public let device: Int
  public let clockOffsetHours: Double
  public let widgetsInstalled: Int
  public let reloadsPerDay: Double
  public let stalenessP95Seconds: Double
  /// What the app's widgets, pushes and activities cost the phone a day.
  public let joulesPerDay: Double
  public let minimumStateOfCharge: Double
  /// The phone's own battery (after `fleet.vary`), to give its energy in % of it.
  public let batteryCapacityJoules: Double
}

/// One device's figures, for shard files.
extension DeviceSummary: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    device.encode(to: &writer)
    widgetsInstalled.encode(to: &writer)
    for value in [
      clockOffsetHours, reloadsPerDay, stalenessP95Seconds, joulesPerDay, minimumStateOfCharge, batteryCapacityJoules,
    ] {
      writer.double(value)
    }
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    device = try Int(from: &reader)
    widgetsInstalled = try Int(from: &reader)
    clockOffsetHours = try reader.double()
    reloadsPerDay = try reader.double()
    stalenessP95Seconds = try reader.double()
    joulesPerDay = try reader.double()
    minimumStateOfCharge = try reader.double()
    batteryCapacityJoules = try reader.double()
  }
}

extension DeviceSummary {
  /// Device `device`'s figures, from the aggregate before and after it ran; `drawn` is the device as drawn
  /// (its own configuration, after `fleet.vary`: its battery).
  init(
    device: Int, drawn: FleetDevice, aggregate: ReplicationResult, socBefore: [Int64],
    perDeviceBefore: DeviceDistributions
  ) {
    let figures = aggregate.perDevice
    func added(_ after: DeviceDistributions.Figure, _ before: DeviceDistributions.Figure) -> Double {
      after.count > before.count ? Double(after.sumMicro - before.sumMicro) / 1e6 : .nan
    }
    let configuration = drawn.configuration
    // The warm-up's hours went to a scratch result: the aggregate's are the other devices' alone there.
    var lowest = Double.infinity
    for hour in socBefore.indices.dropFirst(configuration.warmupDays * 24) {
      lowest = Swift.min(lowest, Double(aggregate.stateOfChargePPM[hour] - socBefore[hour]) / 1e6)
    }
    self.init(
      device: device, clockOffsetHours: drawn.clockOffset.seconds / 3_600,
      widgetsInstalled: configuration.instances.filter { drawn.installed[$0.widgetIndex] }.count,
      reloadsPerDay: added(figures.reloadsPerDay, perDeviceBefore.reloadsPerDay),
      stalenessP95Seconds: added(figures.stalenessP95, perDeviceBefore.stalenessP95),
      joulesPerDay: added(figures.joulesPerDay, perDeviceBefore.joulesPerDay), minimumStateOfCharge: lowest,
      batteryCapacityJoules: configuration.device.battery.capacityJoules)
  }
}
