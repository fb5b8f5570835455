import CommandSupport
import Reports
import TestSupport
import Testing

@testable import Runs

/// `merge` trusts nothing it did not check: every file of every shard folder is held to the identity the
/// shard recorded (scenario text, overrides, version, build, split), and anything else is refused (exit 2).
@Suite("Shard identity")
struct ShardIdentityTests {
  /// Two shards of ShardMergeTests' fleet, run once for the suite; each test edits copies of them.
  static let written: Result<[String], Error> = Result {
    try ShardMergeTests.runShards(2, into: TestFiles.temporaryDirectory(), perDevice: false)
  }

  /// Copies of the two shards, each in a folder of its own under a fresh folder.
  static func shards() throws -> (base: String, folders: [String]) {
    let base = TestFiles.temporaryDirectory()
    var folders: [String] = []
    for (index, folder) in try written.get().enumerated() {
      folders.append("\(base)/shard-\(index)")
      try TestFiles.copyFolder(folder, to: folders[index])
    }
    return (base, folders)
  }

  /// What merging `folders` throws; nil when it merges.
  static func refusal(_ folders: [String], base: String) -> CommandFailure? {
    do {
      try ShardMerge.run(
        folders: folders, directory: "\(base)/merged", force: true, quiet: true, console: Printed().console)
      return nil
    } catch {
      return error
    }
  }

  /// Replaces `old` with `new` in the file at `path` (which must hold it).
  static func edit(_ path: String, _ old: String, _ new: String) throws {
    let text = try TestFiles.read(path)
    #expect(text.contains(old), "\(path) holds no \(old)")
    try TestFiles.write(text.split(separator: old, omittingEmptySubsequences: false).joined(separator: new), to: path)
  }

  @Test("the shards as written merge (the checks below refuse only what was edited)")
  func untouched() throws {
    let (base, folders) = try Self.shards()
    #expect(Self.refusal(folders, base: base) == nil)
  }

  @Test("an edited represents in one shard's scenario.yaml, or in every one, is refused naming the file")
  func editedScenario() throws {
    let (base, folders) = try Self.shards()
    let first = "\(folders[0])/\(ShardFolder.scenario)"
    try Self.edit(first, "represents: 10000", "represents: 20000")
    let one = Self.refusal(folders, base: base)
    #expect(one?.status == 2 && one?.message.contains(first) == true, "\(String(describing: one))")
    try Self.edit("\(folders[1])/\(ShardFolder.scenario)", "represents: 10000", "represents: 20000")
    let both = Self.refusal(folders, base: base)
    #expect(both?.status == 2 && both?.message.contains(ShardFolder.scenario) == true, "\(String(describing: both))")
  }

  @Test("edited replications in every shard.txt are refused: the scenario and overrides say otherwise")
  func editedReplications() throws {
    let (base, folders) = try Self.shards()
    for folder in folders {
      try Self.edit("\(folder)/\(ShardFolder.description)", "replications 2\n", "replications 1\n")
    }
    let refused = Self.refusal(folders, base: base)
    #expect(refused?.status == 2 && refused?.message.contains("replications") == true, "\(String(describing: refused))")
  }

  @Test("shards of two different builds are refused, naming the build")
  func twoBuilds() throws {
    let (base, folders) = try Self.shards()
    let path = "\(folders[1])/\(ShardFolder.description)"
    let build = try #require(try TestFiles.read(path).split(separator: "\n").first { $0.hasPrefix("build ") })
    try Self.edit(path, "\(build)\n", "build 0123456789abcdef\n")
    let refused = Self.refusal(folders, base: base)
    #expect(refused?.status == 2 && refused?.message.contains("build") == true, "\(String(describing: refused))")
  }

  @Test("an identity line edited to hide an edit, and a shard.txt of the older format, are refused")
  func editedIdentity() throws {
    let (base, folders) = try Self.shards()
    // Overrides edited in every shard.txt: the identity no longer follows from the lines.
    for folder in folders {
      try Self.edit("\(folder)/\(ShardFolder.description)", "detail 0\n", "detail 0\noverride seed=5\n")
    }
    let overrides = Self.refusal(folders, base: base)
    #expect(overrides?.status == 2 && overrides?.message.contains("identity") == true)
    for folder in folders {
      try Self.edit("\(folder)/\(ShardFolder.description)", "widgetsim-fleet-shard 2", "widgetsim-fleet-shard 1")
    }
    let older = Self.refusal(folders, base: base)
    #expect(older?.status == 2 && older?.message.contains("another widgetsim") == true)
  }
}
