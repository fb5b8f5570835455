import WidgetModel

/// `devices.csv` (`--per-device`): one row per simulated device and replication.
enum DevicesReport: DeviceReport {
  static let file = "devices.csv"
  static let header =
    "replication,device,timezone_offset_h,widgets_installed,reloads_per_day,staleness_p95_s,joules_per_day,"
    + "min_state_of_charge,mwh_per_day,battery_percent_per_day\n"

  static func rows(_ summaries: [DeviceSummary], replication: Int) -> String {
    var text = ""
    for device in summaries {
      let cells = [
        "\(replication)", "\(device.device)", CSVFormat.number(device.clockOffsetHours, decimals: 3),
        "\(device.widgetsInstalled)", CSVFormat.number(device.reloadsPerDay, decimals: 3),
        CSVFormat.number(device.stalenessP95Seconds, decimals: 1), CSVFormat.number(device.joulesPerDay, decimals: 3),
        CSVFormat.number(device.minimumStateOfCharge * 100, decimals: 2),
        CSVFormat.number(EnergyUnits.milliwattHours(device.joulesPerDay), decimals: 4),
        CSVFormat.number(device.joulesPerDay / device.batteryCapacityJoules * 100, decimals: 5),
      ]
      text += cells.joined(separator: ",") + "\n"
    }
    return text
  }
}
