import CommandSupport
import Fleets
import Reports
import ScenarioFiles
import WidgetModel

/// A shard of a fleet run (`run --shard K/N`): its devices only, kept as exact results for `widgetsim merge`.
extension RunExecution {
  /// The files a shard folder holds (for the refusal to overwrite one).
  static func shardFiles(replications: Int) -> [String] {
    [ShardFolder.description, ShardFolder.scenario] + (0..<replications).map(ShardFolder.replicationFile)
  }

  /// Simulates shard `shard` of every replication into ``directory``: one exact result per replication and
  /// `shard.txt`. Fails with exit 2 when the folder holds a shard it may not replace, 1 on a write failure,
  /// and `stop`'s status when stopped (nothing half-written stays).
  public func runShard(_ shard: FleetShard, allowLarge: Bool, console: Console, stop: StopRequest)
    throws(CommandFailure)
  {
    if let problem = OutputFolder.problem(directory) { throw .badInput(problem) }
    try checkShardCount(shard)
    // The scenario's warnings, as a whole run says them (allowed, but probably not what the user meant).
    for warning in scenario.warnings { console.error("\(warning)\n") }
    let configuration = scenario.configuration
    let files = RunExecution.shardFiles(replications: configuration.replications)
    // Checked under the folder's lock: no other command can write a shard there in between.
    let lock = try OutputFolder.prepare(directory)
    defer { withExtendedLifetime(lock) {} }
    if existing == .refuse {
      let found = ExistingReports.find(files + ExistingReports.runFiles, in: directory)
      guard found.isEmpty else { throw .badInput(ExistingReports.refusal(found, in: directory)) }
    }
    let clock = ContinuousClock()
    let started = clock.now
    let metadata = RunMetadata(
      widgetsimVersion: version, scenarioFile: scenario.file, scenarioText: scenario.text, overrides: overrides,
      wallTimeSeconds: 0)
    let build = BuildIdentity.executable
    let identity = ShardFolder.identity(
      run: RunProgress.identity(metadata, perDevice: perDevice, detail: detail), build: build, allowLarge: allowLarge)
    stop.listen()
    try CommandFailure.mapping(status: 1) {
      AtomicFile.remove("\(directory)/\(ShardFolder.description)")  // marks a complete shard: written last
      let events = try writeShardReplications(shard, identity: identity, console: console, stop: stop)
      try AtomicFile.write(scenario.text, to: "\(directory)/\(ShardFolder.scenario)")
      let elapsed = clock.now - started
      let description = ShardFolder(
        identity: identity, shard: shard, replications: configuration.replications, version: version, build: build,
        scenarioHash: Manifest.hexadecimal(Manifest.fnv1a64(scenario.text)), scenarioFile: scenario.file,
        overrides: overrides, allowLarge: allowLarge, perDevice: perDevice,
        detail: detail, eventsHandled: events,
        wallTimeSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
      try AtomicFile.write(description.text, to: "\(directory)/\(ShardFolder.description)")
      if !quiet {
        console.print(
          "shard \(shard.description): \(shard.devices(of: configuration.fleet.devices)) of "
            + "\(configuration.fleet.devices) devices x \(configuration.replications) replications in \(directory)/; "
            + "when every shard is done: widgetsim merge FOLDER... --out REPORTS")
      }
    }
  }

  /// Refuses more shards than the fleet has devices: a shard with no device would hold nothing to merge.
  func checkShardCount(_ shard: FleetShard) throws(CommandFailure) {
    let devices = scenario.configuration.fleet.devices
    guard shard.count <= devices else {
      throw .badInput(
        "--shard \(shard.description): the fleet has \(WorkEstimate.counted(devices, "device")) to split, so N may "
          + "be at most \(devices) (a shard with no device would hold nothing to merge)")
    }
  }

  /// Simulates the shard's devices in every replication, writing each replication's exact result as it
  /// finishes; returns the events handled in all. Fails with `stop`'s status when stopped (the shard is then
  /// incomplete: it has no `shard.txt`).
  func writeShardReplications(_ shard: FleetShard, identity: String, console: Console, stop: StopRequest)
    throws -> UInt64
  {
    let configuration = scenario.configuration
    var events: UInt64 = 0
    for replication in 0..<configuration.replications {
      guard !stop.isRequested(),
        let (result, devices) = FleetRunner.run(
          configuration, replication: replication, jobs: jobs ?? console.cores, perDevice: perDevice, shard: shard,
          stop: stop.isRequested)
      else {
        throw CommandFailure(
          status: stop.exitStatus(),
          message: "interrupted: shard \(shard.description) is incomplete; run the same command with --force")
      }
      events += result.eventsHandled
      let writer = try AtomicFileWriter(path: "\(directory)/\(ShardFolder.replicationFile(replication))")
      try writer.append(
        bytes: FleetShardResult.encode(result, devices: devices, identity: identity, shard: shard))
      try writer.commit()
    }
    return events
  }
}
