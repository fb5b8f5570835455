import CommandSupport
import FieldLogs
import HTMLReport

extension Calibration {
  /// `widgetsim calibrate`: the fit (``run()``), its lines printed, then report.html in its folder.
  public func runForCommand(console: Console) throws {
    for line in try run().lines { console.print(line) }
    try HTMLReport.writeForCommand(directory: out, console: console)
  }
}
