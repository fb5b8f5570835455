import ArgumentParser
import CommandSupport
import HTMLReport

/// `widgetsim report`: report.html for a run or sweep folder.
struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write DIR/report.html: charts and summary tables of a run or a sweep (also one merged from shards).",
    discussion: """
      The page is a single file that opens offline in any current browser: the charts are drawn as SVG by the
      Vega library embedded in it. It is made from the CSV reports in DIR and replaced each time (a new run or
      sweep into DIR removes the old one); `run`, `sweep` and `check` write it too with --report.
      A run made with --trace DEVICE (trace.csv) gets that device's timeline for day --day (default 0).
      """
  )

  @Argument(help: "A run folder (with summary.csv) or a sweep folder (with sweep_summary.csv).")
  var directory: String

  @Option(
    help: ArgumentHelp(
      "The device whose timeline to draw: the one the run traced (`run --trace DEVICE`, which wrote trace.csv).",
      valueName: "N"))
  var device: Int?

  @Option(help: ArgumentHelp("The day of the device timeline, from 0 (default 0).", valueName: "D"))
  var day: Int?

  @Option(
    help: ArgumentHelp(
      "A sweep's server chart: the users its second axis counts requests for (default: fleet.represents).",
      valueName: "N"))
  var users: Double?

  func validate() throws { try refuse(HTMLReport.problem(users: users, device: device, day: day)) }

  func run() throws {
    // A first Ctrl-C or SIGTERM lets the page be finished and renamed into place; a second quits at once.
    Interruption.install()
    try HTMLReport.writeForCommand(
      directory: directory, timeline: TimelineChoice(device: device, day: day), users: users, console: .standard)
  }
}
