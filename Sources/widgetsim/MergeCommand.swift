import ArgumentParser
import CommandSupport
import Runs

/// `widgetsim merge`: combine shard folders (of a sweep, or of a fleet run) into the whole run's reports.
struct MergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Combine the folders of a sharded sweep or fleet run (--shard K/N) into the whole run's reports."
  )

  @Argument(help: "The shard folders.")
  var folders: [String]

  @Option(help: "Folder for the reports (default: the first shard folder).")
  var out: String?

  @Option(help: "Also write sweep_baseline.csv against this point.")
  var baselinePoint: Int?

  @Flag(help: "Replace the reports already in the output folder (otherwise widgetsim refuses).")
  var force = false

  @Flag(help: "Print nothing but errors (fleet runs).")
  var quiet = false

  func validate() throws { try refuse(FolderMerge.problem(folders: folders)) }

  func run() throws {
    // A first Ctrl-C or SIGTERM lets the merge finish its reports as one set; a second quits at once.
    Interruption.install()
    try refuse(FolderMerge.problem(folders: folders, baselinePoint: baselinePoint))
    try FolderMerge.run(
      folders: folders, directory: out, baselinePoint: baselinePoint, force: force, quiet: quiet, console: .standard)
  }
}
