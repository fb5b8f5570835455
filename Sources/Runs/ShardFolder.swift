import CommandSupport
import Fleets
import Reports
import Results
import ScenarioFiles
import WidgetModel

/// What a shard of a fleet run (`run --shard K/N`) leaves in its folder: `shard.txt` (what was run), the
/// scenario's text (`scenario.yaml`), and one exact binary result per replication (`replication-R.shard`),
/// which `widgetsim merge` adds up into the whole fleet's reports.
public struct ShardFolder: Sendable, Equatable {
  public static let description = "shard.txt"
  public static let scenario = "scenario.yaml"
  /// The format of `shard.txt`; a folder of another is refused (run that shard again).
  static let format = 2

  public static func replicationFile(_ replication: Int) -> String { "replication-\(replication).shard" }

  /// Identifies the run (see ``identity(run:build:allowLarge:)``): every shard's, and every file's in it,
  /// must agree.
  public var identity: String
  public var shard: FleetShard
  public var replications: Int
  public var version: String
  /// The build that simulated (``BuildIdentity/executable``).
  public var build: String
  /// FNV-1a of the scenario's text, which `scenario.yaml` must hash to.
  public var scenarioHash: String
  public var scenarioFile: String
  public var overrides: [String]
  public var allowLarge: Bool
  public var perDevice: Bool
  /// Whether the merged reports give every replication's rows (`--detail`).
  public var detail: Bool
  public var eventsHandled: UInt64
  public var wallTimeSeconds: Double

  /// Everything that decides a shard's results: the run's identity (``RunProgress/identity(_:perDevice:detail:)``:
  /// version, scenario text, overrides, `--per-device`, `--detail`), the build that simulated, and
  /// `--allow-large` (the limits the scenario was loaded with).
  static func identity(run: String, build: String, allowLarge: Bool) -> String {
    Manifest.hexadecimal(Manifest.fnv1a64([run, build, allowLarge ? "allow_large" : ""].joined(separator: "\u{0}")))
  }

  /// ``identity(run:build:allowLarge:)`` as this description's lines and `scenarioText` give it.
  func expectedIdentity(scenarioText: String) -> String {
    let metadata = RunMetadata(
      widgetsimVersion: version, scenarioFile: scenarioFile, scenarioText: scenarioText, overrides: overrides,
      wallTimeSeconds: 0)
    return ShardFolder.identity(
      run: RunProgress.identity(metadata, perDevice: perDevice, detail: detail), build: build, allowLarge: allowLarge)
  }

  /// `shard.txt`: one `key value` per line.
  var text: String {
    var lines = [
      "widgetsim-fleet-shard \(ShardFolder.format)", "identity \(identity)", "shard \(shard.index) \(shard.count)",
      "replications \(replications)", "version \(version)", "build \(build)", "scenario_fnv1a64 \(scenarioHash)",
      "allow_large \(allowLarge ? 1 : 0)",
      "per_device \(perDevice ? 1 : 0)", "detail \(detail ? 1 : 0)", "events \(eventsHandled)",
      "seconds \(wallTimeSeconds)",
      "file \(scenarioFile)",
    ]
    lines += overrides.map { "override \($0)" }
    return lines.joined(separator: "\n") + "\n"
  }

  init(
    identity: String, shard: FleetShard, replications: Int, version: String, build: String, scenarioHash: String,
    scenarioFile: String, overrides: [String], allowLarge: Bool, perDevice: Bool, detail: Bool,
    eventsHandled: UInt64, wallTimeSeconds: Double
  ) {
    self.identity = identity
    self.shard = shard
    self.replications = replications
    self.version = version
    self.build = build
    self.scenarioHash = scenarioHash
    self.scenarioFile = scenarioFile
    self.overrides = overrides
    self.allowLarge = allowLarge
    self.perDevice = perDevice
    self.detail = detail
    self.eventsHandled = eventsHandled
    self.wallTimeSeconds = wallTimeSeconds
  }

  /// Reads `folder`'s `shard.txt`; errors name the file and what is wrong.
  public static func read(_ folder: String) throws(CommandFailure) -> ShardFolder {
    let path = "\(folder)/\(description)"
    let text: String
    do {
      text = try TextFile.read(path, limit: InputLimits.descriptionBytes)
    } catch {
      throw .badInput(
        error.isMissing ? "\(folder) is not the folder of a fleet shard (`run --shard K/N`): \(error)" : "\(error)")
    }
    var values: [String: String] = [:]
    var overrides: [String] = []
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    guard lines.first == "widgetsim-fleet-shard \(format)" else {
      if lines.first?.hasPrefix("widgetsim-fleet-shard ") == true {
        throw .badInput(
          "\(path): written by another widgetsim (\(lines.first ?? "")); run that shard again with this one")
      }
      throw .badInput("\(path): not a fleet shard description (it starts \"\(lines.first ?? "")\")")
    }
    for line in lines.dropFirst() {
      guard let space = line.firstIndex(of: " ") else { throw .badInput("\(path): malformed line \"\(line)\"") }
      let key = String(line[..<space])
      let value = String(line[line.index(after: space)...])
      if key == "override" { overrides.append(value) } else { values[key] = value }
    }
    func field(_ key: String) throws(CommandFailure) -> String {
      guard let value = values[key] else { throw .badInput("\(path): no \(key) line") }
      return value
    }
    let pair = try field("shard").split(separator: " ").compactMap { Int($0) }
    guard pair.count == 2, pair[1] > 0, pair[0] >= 0, pair[0] < pair[1],
      let replications = Int(try field("replications")), replications >= 0,
      let events = UInt64(try field("events")), let seconds = Double(try field("seconds"))
    else { throw .badInput("\(path): malformed shard, replications, events or seconds line") }
    return ShardFolder(
      identity: try field("identity"), shard: FleetShard(index: pair[0], count: pair[1]), replications: replications,
      version: try field("version"), build: try field("build"), scenarioHash: try field("scenario_fnv1a64"),
      scenarioFile: try field("file"), overrides: overrides,
      allowLarge: try field("allow_large") == "1", perDevice: try field("per_device") == "1",
      detail: values["detail"] == "1", eventsHandled: events,
      wallTimeSeconds: seconds)
  }

  /// The folder's `scenario.yaml`, checked against the hash and the identity `shard.txt` records (an edited
  /// copy would merge into figures no run produced); errors name the file.
  func scenarioText(in folder: String) throws(CommandFailure) -> String {
    let path = "\(folder)/\(ShardFolder.scenario)"
    let text: String
    do {
      text = try TextFile.read(path, limit: ScenarioLoader.maximumFileBytes)
    } catch {
      throw .badInput("\(error)")
    }
    guard Manifest.hexadecimal(Manifest.fnv1a64(text)) == scenarioHash else {
      throw .badInput(
        "\(path) is not the scenario this shard ran (its hash is not the one \(ShardFolder.description) records): "
          + "was it edited? Run the shard again")
    }
    guard expectedIdentity(scenarioText: text) == identity else {
      throw .badInput(
        "\(folder)/\(ShardFolder.description): its identity does not match its scenario, overrides, version and "
          + "build lines: was it edited? Run the shard again")
    }
    return text
  }

  /// The fields two shards of one run share, by name, for the refusal to merge shards that differ.
  var sharedFields: [(name: String, value: String)] {
    [
      ("widgetsim version", version), ("build", build), ("scenario", scenarioHash),
      ("overrides", overrides.isEmpty ? "none" : overrides.joined(separator: " ")),
      ("replications", "\(replications)"), ("split", "\(shard.count) shards"), ("--per-device", "\(perDevice)"),
      ("--detail", "\(detail)"), ("--allow-large", "\(allowLarge)"), ("identity", identity),
    ]
  }

  /// Reads a replication file of this folder's run (see ``FleetShardResult``); errors name the file.
  func decode(_ bytes: [UInt8], path: String, configuration: ScenarioConfiguration) throws(CommandFailure) -> (
    ReplicationResult, [DeviceSummary]
  ) {
    do {
      return try FleetShardResult.decode(bytes, identity: identity, shard: shard, configuration: configuration)
    } catch {
      throw .badInput("\(path): \(error.reason)")
    }
  }
}
