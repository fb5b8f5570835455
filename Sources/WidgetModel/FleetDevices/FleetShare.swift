import Results

/// The devices of a fleet that one thread simulates, one after another, into one aggregate: `first`,
/// `first + step`, ... below `end`. Whoever shares a fleet out over threads (and shards) says which; the
/// share runs them, without any thread, lock or clock of its own.
public struct FleetShare: Sendable {
  /// The fleet index of the share's first device.
  public let first: Int
  /// The distance between the share's devices (at least 1).
  public let step: Int
  /// The fleet's size: no device at or past it is in the share.
  public let end: Int

  public init(first: Int, step: Int, end: Int) {
    precondition(first >= 0 && step > 0 && end >= 0, "fleet share from \(first) by \(step) below \(end)")
    self.first = first
    self.step = step
    self.end = end
  }

  /// The whole fleet of `configuration`, for one thread.
  public static func whole(_ configuration: ScenarioConfiguration) -> FleetShare {
    FleetShare(first: 0, step: 1, end: configuration.fleet.devices)
  }

  /// A fleet's whole result, every device of every share added: its warm-up dropped, its per-second load
  /// summarised.
  public static func finish(
    _ result: consuming ReplicationResult, _ configuration: ScenarioConfiguration
  ) -> ReplicationResult {
    result.dropWarmup(days: configuration.warmupDays)
    result.summariseSeconds(configuration)
    return result
  }

  /// How many devices the share holds.
  public var count: Int { first < end ? (end - first - 1) / step + 1 : 0 }

  /// What a share's run gives back: the aggregate of the devices that ran, each one's figures (when asked
  /// for), and whether `stop` cut it short. It stays on the thread that ran the share (not `Sendable`): the
  /// caller moves its parts on.
  public struct Outcome {
    public var result: ReplicationResult
    public var devices: [DeviceSummary]
    public var stopped: Bool
  }

  /// Simulates the share's devices of replication `replication` of `configuration`, each added to one
  /// aggregate as soon as it finishes (taken from `pool` when it has a spare). Asks `stop` before each device
  /// and ends there when it says so; tells `finished` the events each device handled. `keepsRequests`: the
  /// aggregate may keep its server requests as requests (see ``ServerLoad/keepsRequests``).
  public func run(
    _ configuration: ScenarioConfiguration, replication: Int, perDevice: Bool, pool: ResultPool?,
    keepsRequests: Bool, stop: (@Sendable () -> Bool)?, finished: (_ events: UInt64) -> Void
  ) -> Outcome {
    let broadcasts = BroadcastSchedule(configuration, replication: replication)
    let events = FleetEventSchedule(configuration, replication: replication)
    // An `if`, not `??`: nothing captures the configuration (a capture may copy it).
    var aggregate: ReplicationResult
    if let pool {
      aggregate = pool.take(configuration, replication: replication)
    } else {
      aggregate = ReplicationResult(configuration, replication: replication)
    }
    // A large share's server requests are added in sorted batches (see ``RequestBatch``).
    let batching = count * configuration.simulatedDays >= RequestBatch.minimumDeviceDays
    if batching { aggregate.serverLoad.startBatching() }
    // Only without a batch, a per-second load or a warm-up (whose cut reads the minutes); set every time, as
    // the aggregate may be a spare of another run.
    aggregate.serverLoad.keepsRequests =
      keepsRequests && !batching && aggregate.serverLoad.seconds.isEmpty && configuration.warmupDays == 0
    var mine: [DeviceSummary] = []
    var warmupScratch = pool?.takeWarmupScratch()
    var stopped = false
    var record = DeviceRecord(measuredHours: 0..<0)  // each device's, once it has run
    var device = first
    while device < end {
      if let stop, stop() {
        stopped = true
        break
      }
      let drawn = FleetDevice.draw(device, of: configuration, replication: replication)
      let before = aggregate.eventsHandled
      aggregate = DeviceSimulation.run(
        drawn, replication: replication, device: device, broadcasts: broadcasts,
        events: events, into: consume aggregate, warmupScratch: &warmupScratch, record: &record)
      if perDevice { mine.append(DeviceSummary(device: device, drawn: drawn, record: record)) }
      finished(aggregate.eventsHandled - before)
      device += step
    }
    if batching { aggregate.serverLoad.endBatching() }
    // Taken out, not copied: a second reference would make the next device's first write copy every array.
    if let scratch = warmupScratch.take() { pool?.giveWarmupScratch(scratch) }
    return Outcome(result: consume aggregate, devices: mine, stopped: stopped)  // moved out, not copied
  }
}
