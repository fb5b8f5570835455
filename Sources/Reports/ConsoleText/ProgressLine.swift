import CommandSupport
import WidgetModel

/// The single updating progress line on a terminal: devices done, simulated days per second, events per
/// second, an ETA. Written to standard error only when it is a terminal; `FleetRunner` calls `update` at
/// most four times a second.
public struct ProgressLine: Sendable {
  let days: Int
  let replications: Int
  let console: Console

  /// A progress line on `console`, or nil when its standard error is not a terminal.
  public static func make(days: Int, replications: Int, console: Console) -> ProgressLine? {
    console.errorIsTerminal ? ProgressLine(days: days, replications: replications, console: console) : nil
  }

  public func update(replication: Int, _ progress: FleetProgress) {
    let seconds = Swift.max(progress.elapsedSeconds, 1e-3)
    let deviceDays = Double(progress.devicesDone * days) / seconds
    let events = Double(progress.events) / seconds
    let remaining =
      Double(progress.devices - progress.devicesDone) * seconds / Double(Swift.max(progress.devicesDone, 1))
    let text =
      "\r\u{1B}[2Kreplication \(replication + 1)/\(replications): \(progress.devicesDone)/\(progress.devices) devices, "
      + "\(RunSummaryText.fixed(deviceDays, 0)) device-days/s, \(RunSummaryText.fixed(events / 1e6, 2)) M events/s, "
      + "ETA \(RunSummaryText.fixed(remaining, 0)) s"
    console.terminal(text)
  }

  /// For replications run side by side: replications finished of all.
  public func replications(_ finished: Int, of total: Int) {
    console.terminal("\r\u{1B}[2K\(finished)/\(total) replications")
  }

  /// For sweeps: tasks finished of all.
  public func tasks(_ finished: Int, of total: Int) {
    console.terminal("\r\u{1B}[2K\(finished)/\(total) tasks")
  }

  public func finish() {
    console.terminal("\r\u{1B}[2K")
  }
}
