import ScenarioFiles
import TestSupport

@testable import Sweeps

/// A sweep run as `shards` shards (two replications each) into folders of their own, then merged: the merged
/// folder, for tests that check it equals the unsharded run.
func shardedAndMerged(_ sweep: LoadedSweep, shards: Int) throws -> String {
  var folders: [String] = []
  for index in 0..<shards {
    let folder = TestFiles.temporaryDirectory() + "/shard\(index)"
    try SweepExecution(
      sweep, overrides: ["replications=2"], directory: folder, shard: SweepShard("\(index)/\(shards)"), quiet: true
    ).run(console: Printed().console, stop: .never)
    folders.append(folder)
  }
  let merged = TestFiles.temporaryDirectory() + "/merged"
  try SweepMerge.run(folders: folders, directory: merged, baselinePoint: nil, force: false, console: Printed().console)
  return merged
}
