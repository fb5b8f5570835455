import CommandSupport
import Reports
import Results
import ScenarioFiles
import WidgetModel

/// Combining the shards of a fleet run (`run --shard K/N`) into the whole fleet's reports: byte for byte
/// those of the same run unsharded (every accumulator is an integer sum; the wall time in the manifest is
/// the shards' total).
public enum ShardMerge {
  /// Whether `folder` holds a fleet shard (rather than a sweep shard).
  public static func isShard(_ folder: String) -> Bool {
    TextFile.isReadable("\(folder)/\(ShardFolder.description)")
  }

  /// Reads every shard folder and writes the run's reports into `directory` (nil: the first folder). Fails
  /// with exit 2 on unreadable, mismatched or missing shards, and when reports are there already unless
  /// `force`; 1 on a write failure.
  @discardableResult
  public static func run(folders: [String], directory: String?, force: Bool, quiet: Bool, console: Console)
    throws(CommandFailure) -> RunSummary
  {
    guard let first = folders.first else { throw .badInput("give the shard folders") }
    var shards: [ShardFolder] = []
    for folder in folders { shards.append(try ShardFolder.read(folder)) }
    try checkSameRun(shards, in: folders)
    // Each folder's scenario must be the one its shard.txt records (they are then all the same text).
    var texts: [String] = []
    for (folder, shard) in zip(folders, shards) { texts.append(try shard.scenarioText(in: folder)) }
    let ordered = try inShardOrder(shards, in: folders)
    let description = shards[0]
    let scenario = try loadScenario(texts[0], description)
    guard scenario.configuration.replications == description.replications else {
      throw .badInput(
        "\(first)/\(ShardFolder.description) says \(description.replications) replications; its scenario and "
          + "overrides give \(scenario.configuration.replications): was it edited? Run the shards again")
    }
    let directory = directory ?? first
    // Checked under the folder's lock: no other command can write reports there in between.
    let lock = try OutputFolder.prepare(directory)
    defer { withExtendedLifetime(lock) {} }
    let found = ExistingReports.find(ExistingReports.runFiles, in: directory)
    if !force && !found.isEmpty { throw .badInput(ExistingReports.refusal(found, in: directory)) }
    let configuration = scenario.configuration
    return try CommandFailure.mapping(status: 1) {
      let writer = try RunReportWriter(
        configuration: configuration, directory: directory, perDevice: description.perDevice,
        detail: description.detail)
      for replication in 0..<description.replications {
        guard
          let (result, devices) = try mergeReplication(
            replication, of: ordered, configuration: configuration, perDevice: description.perDevice)
        else { continue }
        try writer.add(result, devices: devices)
      }
      var metadata = RunMetadata(
        widgetsimVersion: description.version, scenarioFile: description.scenarioFile, scenarioText: scenario.text,
        overrides: description.overrides, wallTimeSeconds: shards.reduce(0) { $0 + $1.wallTimeSeconds })
      metadata.warnings = scenario.warnings.map(\.description)  // as the unsharded run's manifest has them
      return try RunExecution.finish(writer, metadata: metadata, quiet: quiet, console: console)
    }
  }

  /// Refuses shards of different runs: every shard must share the first one's scenario, overrides and build.
  static func checkSameRun(_ shards: [ShardFolder], in folders: [String]) throws(CommandFailure) {
    for (folder, shard) in zip(folders, shards) {
      let differences = zip(shards[0].sharedFields, shard.sharedFields).filter { $0.0.value != $0.1.value }
      guard differences.isEmpty else {
        throw .badInput(
          "\(folder) holds a shard of a different run than \(folders[0]): "
            + differences.map { "\($0.0.name): \($0.0.value) vs \($0.1.value)" }.joined(separator: "; ")
            + " (\(folders[0]) vs \(folder))")
      }
    }
  }

  /// The shards by index, 0 to N-1, with their folders; refuses a shard given twice or one missing.
  static func inShardOrder(_ shards: [ShardFolder], in folders: [String]) throws(CommandFailure) -> [(
    folder: String, shard: ShardFolder
  )] {
    let count = shards[0].shard.count
    var byIndex: [Int: (folder: String, shard: ShardFolder)] = [:]
    for (folder, shard) in zip(folders, shards) {
      if let other = byIndex[shard.shard.index] {
        throw .badInput("\(other.folder) and \(folder) are both shard \(shard.shard.description)")
      }
      byIndex[shard.shard.index] = (folder, shard)
    }
    let missing = (0..<count).filter { byIndex[$0] == nil }
    guard missing.isEmpty else {
      throw .badInput(
        "shards \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) are missing: give all \(count) folders")
    }
    return (0..<count).compactMap { byIndex[$0] }
  }

  /// Replication `replication` of the whole fleet: the shards' exact results merged (nil without a shard),
  /// and with `perDevice` every device's summary in fleet order. Fails with exit 2 on an unreadable result.
  static func mergeReplication(
    _ replication: Int, of ordered: [(folder: String, shard: ShardFolder)], configuration: ScenarioConfiguration,
    perDevice: Bool
  ) throws(CommandFailure) -> (ReplicationResult, [DeviceSummary])? {
    let count = ordered.count
    var merged: ReplicationResult?
    var parts: [[DeviceSummary]] = []
    for (folder, shard) in ordered {
      let path = "\(folder)/\(ShardFolder.replicationFile(replication))"
      let bytes: [UInt8]
      do {
        bytes = try TextFile.readBytes(path, limit: InputLimits.resultBytes)
      } catch {
        throw CommandFailure.badInput("\(error)")
      }
      let (result, devices) = try shard.decode(bytes, path: path, configuration: configuration)
      if merged == nil { merged = result } else { merged!.merge(result) }
      parts.append(devices)
    }
    guard var result = merged else { return nil }
    result.summariseSeconds(configuration)
    // Device d is shard d mod N's device d / N.
    var devices: [DeviceSummary] = []
    if perDevice {
      for device in 0..<configuration.fleet.devices where device / count < parts[device % count].count {
        devices.append(parts[device % count][device / count])
      }
    }
    return (result, devices)
  }

  /// The scenario the shards ran: the text they kept, with their overrides and limits.
  static func loadScenario(_ text: String, _ description: ShardFolder) throws(CommandFailure) -> LoadedScenario {
    try CommandFailure.mapping(status: 2) {
      var overrides: [ScenarioOverride] = []
      for argument in description.overrides { overrides.append(try ScenarioOverride(argument)) }
      return try ScenarioLoader.load(
        text: text, file: description.scenarioFile, overrides: overrides,
        limits: ScenarioLimits(allowLarge: description.allowLarge))
    }
  }
}
