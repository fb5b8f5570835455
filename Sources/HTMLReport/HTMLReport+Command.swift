import CommandSupport
import Reports

extension HTMLReport {
  /// What is wrong with the options that shape report.html (`widgetsim report`, `sweep --report`), or nil:
  /// `--users` a number above 0 and only where a page is written (`report`), `--device` and `--day` from 0.
  public static func problem(users: Double?, device: Int? = nil, day: Int? = nil, report: Bool = true) -> String? {
    if let users, !(users > 0 && users.isFinite) { return "--users takes a number above 0, got \(users)" }
    if users != nil && !report { return "--users sets report.html's server chart: add --report, or leave --users out" }
    if let device, device < 0 { return "--device takes a device number from 0, got \(device)" }
    if let day, day < 0 { return "--day takes a day from 0, got \(day)" }
    return nil
  }

  /// ``writeForCommand(directory:timeline:users:)``, then `report: PATH` on `console` unless `quiet`: how
  /// every command that writes the page says where it is.
  public static func writeForCommand(
    directory: String, timeline: TimelineChoice = TimelineChoice(), users: Double? = nil, console: Console,
    quiet: Bool = false
  ) throws(CommandFailure) {
    let page = try writeForCommand(directory: directory, timeline: timeline, users: users)
    if !quiet { console.print("report: \(page)") }
  }
}
