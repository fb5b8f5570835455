import WidgetModel

/// The single updating progress line on a terminal: devices done, simulated days per second, events per
/// second, an ETA. Written to standard error only when it is a terminal; `FleetRunner` calls `update` at
/// most four times a second.
final class ProgressLine: Sendable {
  let days: Int
  let replications: Int

  private init(days: Int, replications: Int) {
    self.days = days
    self.replications = replications
  }

  /// A progress line, or nil when standard error is not a terminal.
  static func make(days: Int, replications: Int) -> ProgressLine? {
    Console.standardErrorIsTerminal ? ProgressLine(days: days, replications: replications) : nil
  }

  func update(replication: Int, _ progress: FleetProgress) {
    let seconds = Swift.max(progress.elapsedSeconds, 1e-3)
    let deviceDays = Double(progress.devicesDone * days) / seconds
    let events = Double(progress.events) / seconds
    let remaining =
      Double(progress.devices - progress.devicesDone) * seconds / Double(Swift.max(progress.devicesDone, 1))
    let text =
      "\r\u{1B}[2Kreplication \(replication + 1)/\(replications): \(progress.devicesDone)/\(progress.devices) devices, "
      + "\(RunSummaryText.fixed(deviceDays, 0)) device-days/s, \(RunSummaryText.fixed(events / 1e6, 2)) M events/s, "
      + "ETA \(RunSummaryText.fixed(remaining, 0)) s"
    Console.error(text)
  }

  /// For sweeps: tasks finished of all.
  func tasks(_ finished: Int, of total: Int) {
    Console.error("\r\u{1B}[2K\(finished)/\(total) tasks")
  }

  func finish() {
    Console.error("\r\u{1B}[2K")
  }
}
