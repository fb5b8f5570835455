import CommandSupport
import FieldLogs
import HTMLReport

extension RunRequest {
  /// `widgetsim run`: the run (``run(console:stop:)``), then what its options ask for beside the reports:
  /// the field log and the server's send log (`--field-log`, `--server-log`), then report.html (`--report`).
  /// A shard writes neither.
  public func runForCommand(console: Console, stop: StopRequest) throws {
    guard let execution = try run(console: console, stop: stop) else { return }
    try FieldLogWriter.write(execution.scenario.configuration, to: fieldLog, serverLog: serverLog)
    if report { try HTMLReport.writeForCommand(directory: execution.directory, console: console) }
  }
}
