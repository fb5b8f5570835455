import CommandSupport
import HTMLReport
import Sweeps

extension SweepExecution {
  /// What is wrong with `widgetsim sweep`'s options, or nil: `--users` (which needs `--report`), then
  /// `--jobs` and `--shard` (``problem(jobs:shard:)``).
  public static func problem(jobs: Int?, shard: String?, report: Bool, users: Double?) -> String? {
    HTMLReport.problem(users: users, report: report) ?? problem(jobs: jobs, shard: shard)
  }

  /// `widgetsim sweep`: the sweep (``run(console:stop:)``), then, with `report` and once the sweep's reports
  /// are written (not after a stop or a shard), report.html, its server chart counting requests for `users`.
  public func runForCommand(console: Console, stop: StopRequest, report: Bool, users: Double?) throws {
    let wroteReports = try run(console: console, stop: stop)
    if wroteReports && report {
      try HTMLReport.writeForCommand(directory: directory, users: users, console: console, quiet: quiet)
    }
  }
}
