import CommandSupport
import Reports
import TestSupport
import Testing

@testable import Sweeps

/// A sweep merge refuses what a fleet merge refuses, with the same exit status (2): a shard left out, and a
/// folder whose points do not describe the sweep its journal ran.
@Suite("Sweep merge refusals")
struct SweepMergeRefusalTests {
  /// The two shards of SweepExecutionTests' sweep, each in a folder of its own.
  static func shards() throws -> [String] {
    let sweep = try SweepExecutionTests.sweep()
    var folders: [String] = []
    for index in 0..<2 {
      let folder = TestFiles.temporaryDirectory() + "/shard\(index)"
      try SweepExecution(
        sweep, overrides: ["replications=2"], directory: folder, shard: SweepShard("\(index)/2"), quiet: true
      )
      .run(console: Printed().console, stop: .never)
      folders.append(folder)
    }
    return folders
  }

  /// What merging `folders` throws; nil when it merges.
  static func refusal(_ folders: [String]) -> CommandFailure? {
    do {
      try SweepMerge.run(
        folders: folders, directory: TestFiles.temporaryDirectory() + "/merged", baselinePoint: nil, force: false,
        console: Printed().console)
      return nil
    } catch {
      return error
    }
  }

  @Test("a sweep merge with a shard missing exits 2, as a fleet merge does")
  func missingShard() throws {
    let folders = try Self.shards()
    let missing = Self.refusal([folders[0]])
    #expect(missing?.status == 2 && missing?.message.contains("in no shard folder") == true)
    #expect(Self.refusal(folders) == nil)
  }

  @Test("points edited in one folder (a point's replications) are refused naming the folder")
  func editedPoints() throws {
    let folders = try Self.shards()
    let path = "\(folders[1])/\(SweepOutput.points)"
    let lines = try TestFiles.read(path).split(separator: "\n", omittingEmptySubsequences: false)
    // The first point's replications, 2, become 1.
    let edited = [lines[0], lines[1].replacing(",2,", with: ",1,", maxReplacements: 1)] + lines.dropFirst(2)
    #expect(edited[1] != lines[1])
    try TestFiles.write(edited.joined(separator: "\n"), to: path)
    let refused = Self.refusal(folders)
    #expect(refused?.status == 2 && refused?.message.contains(folders[1]) == true, "\(String(describing: refused))")
  }
}
