import ArgumentParser
import HTMLReport
import Reports

/// `widgetsim report`: report.html for a run or sweep folder.
struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write DIR/report.html: charts and summary tables of a run or a sweep (also one merged from shards).",
    discussion: """
      The page is a single file that opens offline in any current browser: the charts are drawn as SVG by the
      Vega library embedded in it. It is made from the CSV reports in DIR and replaced each time (a new run or
      sweep into DIR removes the old one); `run`, `sweep` and `check` write it too with --report.
      """
  )

  @Argument(help: "A run folder (with summary.csv) or a sweep folder (with sweep_summary.csv).")
  var directory: String

  func run() throws {
    Console.standard.print("report: \(try HTMLReport.writeForCommand(directory: directory))")
  }
}
