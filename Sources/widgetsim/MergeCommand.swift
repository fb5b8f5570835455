import ArgumentParser
import Reports
import Sweeps

/// `widgetsim merge`: combine sweep shard folders into the reports of the whole sweep.
struct MergeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Combine the folders of a sharded sweep (--shard K/N) into the sweep's reports."
  )

  @Argument(help: "The shard folders.")
  var folders: [String]

  @Option(help: "Folder for the reports (default: the first shard folder).")
  var out: String?

  @Option(help: "Also write sweep_baseline.csv against this point.")
  var baselinePoint: Int?

  @Flag(help: "Replace the sweep reports already in the output folder (otherwise widgetsim refuses).")
  var force = false

  func validate() throws {
    if folders.isEmpty { throw ValidationError("give at least one shard folder") }
  }

  func run() throws {
    try SweepMerge.run(
      folders: folders, directory: out, baselinePoint: baselinePoint, force: force, console: .standard)
  }
}
