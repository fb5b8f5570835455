import Results
import WidgetModel

/// `battery.csv`: at the end of every hour, the state of charge in percent, and the share of devices in Low Power
/// Mode and charging (0 or 1 for one device; mean and shares over a fleet).
enum BatteryReport: RunReport {
  static let file = "battery.csv"
  static let columns = "day,hour,state_of_charge,low_power_mode,charging\n"

  static func rows(_ result: ReplicationResult, _ scope: ReportScope) -> String {
    var text = ""
    let stateOfCharge = result.stateOfCharge
    let lowPower = result.lowPowerModeShare
    let charging = result.chargingShare
    func share(_ value: Double) -> String { value == 0 || value == 1 ? "\(Int(value))" : CSVFormat.number(value) }
    for index in 0..<(result.days * 24) {
      let cells = [
        "\(index / 24)", "\(index % 24)",
        CSVFormat.number(stateOfCharge[index] * 100, decimals: 2), share(lowPower[index]), share(charging[index]),
      ]
      text += scope.lead + cells.joined(separator: ",") + "\n"
    }
    return text
  }
}
