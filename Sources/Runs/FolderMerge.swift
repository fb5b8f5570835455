import CommandSupport
import Sweeps

/// `widgetsim merge`: the shard folders of a fleet run (``ShardMerge``) or of a sweep (`SweepMerge`), told
/// apart by the first folder, combined into the whole run's reports.
public enum FolderMerge {
  /// Whether `folders` are a fleet run's shards, to which `--baseline-point` does not apply.
  public static func areFleetShards(_ folders: [String]) -> Bool {
    folders.first.map(ShardMerge.isShard) ?? false
  }

  /// What is wrong with `merge`'s folders before they are read, or nil: there must be one at least.
  public static func problem(folders: [String]) -> String? {
    folders.isEmpty ? "give at least one shard folder" : nil
  }

  /// What is wrong with `baselinePoint` for `folders`, or nil: it is a sweep's, and fleet shards have none.
  public static func problem(folders: [String], baselinePoint: Int?) -> String? {
    baselinePoint != nil && areFleetShards(folders) ? "--baseline-point applies to sweeps; these are fleet shards" : nil
  }

  /// Merges `folders` into `directory` (default: the first folder); `baselinePoint` is a sweep's.
  public static func run(
    folders: [String], directory: String?, baselinePoint: Int?, force: Bool, quiet: Bool, console: Console
  ) throws {
    if areFleetShards(folders) {
      try ShardMerge.run(folders: folders, directory: directory, force: force, quiet: quiet, console: console)
    } else {
      try SweepMerge.run(
        folders: folders, directory: directory, baselinePoint: baselinePoint, force: force, console: console)
    }
  }
}
