/// A result's battery and power state over the hours, from its per-hour counts over the devices.
extension ReplicationResult {
  /// Mean state of charge (0...1) at the end of each hour.
  public var stateOfCharge: [Double] { stateOfChargePPM.map(meanStateOfCharge) }

  /// The lowest of ``stateOfCharge`` (NaN when it is empty), without making the series: the series is a
  /// rising function of the counts, so its lowest is that of the lowest count.
  public var lowestStateOfCharge: Double {
    guard let lowest = stateOfChargePPM.min() else { return .nan }
    return meanStateOfCharge(lowest)
  }

  /// Share of devices in Low Power Mode / charging at each hour (0 or 1 for one device).
  public var lowPowerModeShare: [Double] { lowPowerDevices.map(deviceShare) }
  public var chargingShare: [Double] { chargingDevices.map(deviceShare) }

  /// The sum of ``lowPowerModeShare`` over the hours, added in the same order, without making the series.
  public var lowPowerModeHours: Double {
    var total = 0.0
    for count in lowPowerDevices { total += deviceShare(count) }
    return total
  }

  /// For one device: whether Low Power Mode was on / it charged at each hour (for a fleet: most devices).
  public var lowPowerMode: [Bool] { lowPowerDevices.map { Int($0) * 2 > devices } }
  public var charging: [Bool] { chargingDevices.map { Int($0) * 2 > devices } }

  /// An hour's summed state of charge (millionths, over the devices) as the devices' mean.
  private func meanStateOfCharge(_ ppm: Int64) -> Double {
    devices > 0 ? Double(ppm) / 1e6 / Double(devices) : .nan
  }

  /// An hour's count of devices as a share of them.
  private func deviceShare(_ count: Int32) -> Double {
    devices > 0 ? Double(count) / Double(devices) : 0
  }
}
