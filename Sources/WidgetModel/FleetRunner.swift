import Dispatch
import SimulationEngine
import Synchronization

/// One device of a fleet as drawn for a replication: its own configuration (after `fleet.vary`), its clock
/// ahead of UTC, which widgets it has, and when they were added.
public struct FleetDevice: Sendable {
  public let configuration: ScenarioConfiguration
  public let clockOffset: SimDuration
  /// By index in `widgets`.
  public let installed: [Bool]
  /// After the start of the device's first day.
  public let installTime: SimDuration
}

/// How far a fleet run has got, for a progress line.
public struct FleetProgress: Sendable {
  public let devicesDone: Int
  public let devices: Int
  public let events: UInt64
  public let elapsedSeconds: Double
}

/// One device's own figures, for `devices.csv`.
public struct DeviceSummary: Sendable {
  public let device: Int
  public let clockOffsetHours: Double
  public let widgetsInstalled: Int
  public let reloadsPerDay: Double
  public let stalenessP95Seconds: Double
  /// What the app's widgets, pushes and activities cost the phone a day.
  public let joulesPerDay: Double
  public let minimumStateOfCharge: Double
  /// The phone's own battery (after `fleet.vary`), to give its energy in % of it.
  public let batteryCapacityJoules: Double
}

/// One device's figures, for shard files.
extension DeviceSummary: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    device.encode(to: &writer)
    widgetsInstalled.encode(to: &writer)
    for value in [
      clockOffsetHours, reloadsPerDay, stalenessP95Seconds, joulesPerDay, minimumStateOfCharge, batteryCapacityJoules,
    ] {
      writer.double(value)
    }
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    device = try Int(from: &reader)
    widgetsInstalled = try Int(from: &reader)
    clockOffsetHours = try reader.double()
    reloadsPerDay = try reader.double()
    stalenessP95Seconds = try reader.double()
    joulesPerDay = try reader.double()
    minimumStateOfCharge = try reader.double()
    batteryCapacityJoules = try reader.double()
  }
}

/// Simulates a fleet of devices for one replication, spread over `jobs` threads.
///
/// Each device runs alone with its own small event set and its own streams (seeded by device index), and
/// is added to its thread's aggregate as soon as it finishes; memory does not grow with the number of
/// devices. Aggregates hold only integers, so the threads' aggregates add up to the same bits however the
/// devices were shared out: reports are byte-identical for every `jobs`.
public enum FleetRunner {
  /// Per-device draws (time zone, varied parameters, installed widgets) use this stream of the device.
  static let variationStream: UInt64 = 0xF1EE7 << 40

  /// The configuration, clock offset, installed widgets and install time of device `device`.
  public static func device(_ device: Int, of configuration: ScenarioConfiguration, replication: Int) -> FleetDevice {
    let fleet = configuration.fleet
    let stream = RandomStream(
      seed: StreamSeed(
        scenarioSeed: configuration.seed, replication: UInt64(replication), entity: UInt64(device),
        stream: variationStream))
    var offset = SimDuration.zero
    if let clock = fleet.clockOffset {
      let limit = ServerLoad.maximumOffset
      offset = Swift.min(Swift.max(SimDuration(seconds: clock.sample(stream)), SimDuration.zero - limit), limit)
    }
    var mine = configuration
    for variation in fleet.variations {
      variation.parameter.apply(variation.distribution.sample(stream), to: &mine)
    }
    var installed = Array(repeating: true, count: configuration.widgets.count)
    for index in installed.indices {
      if let probability = fleet.installProbability[index] { installed[index] = stream.bernoulli(probability) }
    }
    // Drawn last, so scenarios without it draw everything else as before.
    let last = SimDuration.days(Int64(configuration.simulatedDays)) - .seconds(1)
    var installTime = SimDuration.zero
    if let distribution = fleet.installTime {
      installTime = Swift.min(Swift.max(SimDuration(seconds: distribution.sample(stream)), .zero), last)
    }
    // The fleet's default spreads, after every draw the scenario asked for.
    if fleet.devices > 1 {
      let spread = fleet.spread
      if let install = spread.install, fleet.installTime == nil, install > .zero {
        installTime = Swift.min(SimDuration(seconds: stream.uniform() * install.seconds), last)
      }
      if let sleep = spread.sleep, sleep > .zero {
        // The phone goes on its nightstand charger when its user goes to bed, and off it at waking.
        if !fleet.varies(.sleepFromShiftSeconds) {
          let shift = DeviceParameter.clockShift(normalShift(sd: sleep, stream))
          mine.user.sleep.from = mine.user.sleep.from.shifted(by: shift)
          if let window = mine.device.charging?.window {
            mine.device.charging?.window.from = window.from.shifted(by: shift)
          }
        }
        if !fleet.varies(.sleepToShiftSeconds) {
          let shift = DeviceParameter.clockShift(normalShift(sd: sleep, stream))
          mine.user.sleep.to = mine.user.sleep.to.shifted(by: shift)
          if let window = mine.device.charging?.window {
            mine.device.charging?.window.to = window.to.shifted(by: shift)
          }
        }
      }
      if let starts = spread.starts, starts > .zero {
        for index in mine.liveActivities.indices where mine.liveActivities[index].start != .pushToStart {
          let drawn = DeviceParameter.clockShift(normalShift(sd: starts, stream))
          mine.liveActivities[index].startsAt = mine.liveActivities[index].startsAt.map { $0.shifted(by: drawn) }
        }
      }
    }
    return FleetDevice(configuration: mine, clockOffset: offset, installed: installed, installTime: installTime)
  }

  /// A normal draw in seconds with mean 0 and standard deviation `sd` (positive).
  static func normalShift(sd: SimDuration, _ stream: RandomStream) -> Double {
    (try? Distribution.normal(mean: 0, sd: sd.seconds))?.sample(stream) ?? 0
  }

  /// Runs every device of the fleet; returns the aggregate and, when `perDevice`, each device's figures in
  /// device order.
  public static func run(
    _ configuration: ScenarioConfiguration, replication: Int, jobs: Int, perDevice: Bool = false,
    progress: (@Sendable (FleetProgress) -> Void)? = nil
  ) -> (result: ReplicationResult, devices: [DeviceSummary]) {
    // Without `stop` every device runs.
    run(configuration, replication: replication, jobs: jobs, perDevice: perDevice, progress: progress, stop: nil)!
  }

  /// As ``run(_:replication:jobs:perDevice:progress:)``, but each thread asks `stop` before each device and
  /// gives up when it says so (Ctrl-C): then the replication is incomplete and the result is nil. Threads
  /// take their results from `pool` when it has spares, and the ones merged away go back to it.
  /// `summedOnly`: the result is only summarised (``ServerLoad/minuteTotals()``, the totals) and added into a
  /// run's sum (``ReplicationResult/absorb(_:)``, ``ReplicationResult/merge(_:)``), never read minute by
  /// minute; a small replication's server requests may then stay as requests (``ServerLoad/keepsRequests``).
  public static func run(
    _ configuration: ScenarioConfiguration, replication: Int, jobs: Int, perDevice: Bool = false,
    shard: FleetShard = .whole, progress: (@Sendable (FleetProgress) -> Void)? = nil, stop: (@Sendable () -> Bool)?,
    pool: ResultPool? = nil, summedOnly: Bool = false
  ) -> (result: ReplicationResult, devices: [DeviceSummary])? {
    let devices = shard.devices(of: configuration.fleet.devices)
    let workers = Swift.max(1, Swift.min(jobs, devices))
    let counters = FleetCounters(devices: devices, progress: progress)
    if workers == 1 {
      // One worker (one job, replications run side by side, or at most one device): on this thread, without
      // a dispatch, the hand-over arrays and their locks, or a move of the result through them.
      let (aggregate, mine) = runWorker(
        0, of: 1, configuration, replication: replication, perDevice: perDevice, shard: shard, counters: counters,
        stop: stop, pool: pool, keepsRequests: summedOnly)
      if counters.stopped.load(ordering: .relaxed) { return nil }
      return (finished(consume aggregate, configuration), mine)  // `mine` is empty without perDevice
    }
    let results = Mutex<[ReplicationResult?]>(Array(repeating: nil, count: workers))
    let summaries = Mutex<[[DeviceSummary]]>(Array(repeating: [], count: workers))
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      let (aggregate, mine) = runWorker(
        worker, of: workers, configuration, replication: replication, perDevice: perDevice, shard: shard,
        // Threads' results are merged: only a one-worker run's result may keep its requests.
        counters: counters, stop: stop, pool: pool, keepsRequests: false)
      // Moved in, not copied (each copy retains and then releases every array of the result).
      var handed = Optional(consume aggregate)
      results.withLock { $0[worker] = handed.take() }
      summaries.withLock { $0[worker] = mine }
    }
    if counters.stopped.load(ordering: .relaxed) { return nil }
    // Moved out of the mutex, not copied: a second reference would make the merge copy every array.
    var combined = results.withLock { results in
      defer { results = [] }
      return results
    }
    guard var result = combined[0].take() else { preconditionFailure("a worker left no result") }
    for index in combined.indices.dropFirst() {
      guard let other = combined[index].take() else { preconditionFailure("a worker left no result") }
      result.merge(other)
      pool?.give(other)
    }
    result = finished(consume result, configuration)
    // The shard's device at position p ran on worker p % workers, in order: interleave the workers' lists
    // back into device order.
    let lists = summaries.withLock { $0 }
    var ordered: [DeviceSummary] = []
    if perDevice {
      ordered.reserveCapacity(devices)
      for position in 0..<devices { ordered.append(lists[position % workers][position / workers]) }
    }
    return (result, ordered)
  }

  /// A fleet's whole result, every device added: its warm-up dropped, its per-second load summarised.
  private static func finished(
    _ result: consuming ReplicationResult, _ configuration: ScenarioConfiguration
  ) -> ReplicationResult {
    result.dropWarmup(days: configuration.warmupDays)
    result.summariseSeconds(configuration)
    return result
  }

  /// One thread's share of the fleet: devices `worker`, `worker + workers`, ..., each added to the thread's
  /// aggregate as soon as it finishes. `keepsRequests`: the aggregate may keep its server requests as
  /// requests (see ``ServerLoad/keepsRequests``).
  static func runWorker(
    _ worker: Int, of workers: Int, _ configuration: ScenarioConfiguration, replication: Int, perDevice: Bool,
    shard: FleetShard, counters: FleetCounters, stop: (@Sendable () -> Bool)?, pool: ResultPool?,
    keepsRequests: Bool = false
  ) -> (ReplicationResult, [DeviceSummary]) {
    let fleetDevices = configuration.fleet.devices
    let devices = shard.devices(of: fleetDevices)
    let broadcasts = BroadcastSchedule(configuration, replication: replication)
    let events = FleetEventSchedule(configuration, replication: replication)
    // An `if`, not `??`: nothing captures the configuration (a capture may copy it).
    var aggregate: ReplicationResult
    if let pool {
      aggregate = pool.take(configuration, replication: replication)
    } else {
      aggregate = ReplicationResult(configuration, replication: replication)
    }
    // Whole before the first device: the per-device summaries read the figures before and after each one.
    aggregate.openAll()
    // A large share's server requests are added in sorted batches (see ``RequestBatch``).
    let batching =
      (devices - worker + workers - 1) / workers * configuration.simulatedDays
      >= RequestBatch.minimumDeviceDays
    if batching { aggregate.serverLoad.startBatching() }
    // Only without a batch, a per-second load or a warm-up (whose cut reads the minutes); set every time, as
    // the aggregate may be a spare of another run.
    aggregate.serverLoad.keepsRequests =
      keepsRequests && !batching && aggregate.serverLoad.seconds.isEmpty && configuration.warmupDays == 0
    var mine: [DeviceSummary] = []
    var warmupScratch = pool?.takeWarmupScratch()
    var position = worker
    while position < devices {
      if let stop, stop() {
        counters.stopped.store(true, ordering: .relaxed)
        break
      }
      let device = shard.device(at: position)
      let drawn = FleetRunner.device(device, of: configuration, replication: replication)
      let before = aggregate.eventsHandled
      let socBefore = perDevice ? aggregate.stateOfChargePPM : []
      let perDeviceBefore = perDevice ? aggregate.perDevice : DeviceDistributions()
      aggregate = DeviceSimulation.run(
        drawn, replication: replication, device: device, broadcasts: broadcasts,
        events: events, into: consume aggregate, warmupScratch: &warmupScratch)
      if perDevice {
        mine.append(
          summary(
            device: device, offset: drawn.clockOffset, installed: drawn.installed, configuration: drawn.configuration,
            aggregate: aggregate, socBefore: socBefore, perDeviceBefore: perDeviceBefore))
      }
      counters.deviceFinished(events: aggregate.eventsHandled - before)
      position += workers
    }
    if batching { aggregate.serverLoad.endBatching() }
    // Taken out, not copied: a second reference would make the next device's first write copy every array.
    if let scratch = warmupScratch.take() { pool?.giveWarmupScratch(scratch) }
    return (consume aggregate, mine)  // moved out: a copy retained and released its every array
  }

  /// One device's figures, from the aggregate before and after it ran; `configuration` is the device's own
  /// (after `fleet.vary`: its battery).
  static func summary(
    device: Int, offset: SimDuration, installed: [Bool], configuration: ScenarioConfiguration,
    aggregate: ReplicationResult, socBefore: [Int64], perDeviceBefore: DeviceDistributions
  ) -> DeviceSummary {
    let figures = aggregate.perDevice
    func added(_ after: DeviceDistributions.Figure, _ before: DeviceDistributions.Figure) -> Double {
      after.count > before.count ? Double(after.sumMicro - before.sumMicro) / 1e6 : .nan
    }
    var lowest = Double.infinity
    for hour in socBefore.indices {
      lowest = Swift.min(lowest, Double(aggregate.stateOfChargePPM[hour] - socBefore[hour]) / 1e6)
    }
    return DeviceSummary(
      device: device, clockOffsetHours: offset.seconds / 3_600,
      widgetsInstalled: configuration.instances.filter { installed[$0.widgetIndex] }.count,
      reloadsPerDay: added(figures.reloadsPerDay, perDeviceBefore.reloadsPerDay),
      stalenessP95Seconds: added(figures.stalenessP95, perDeviceBefore.stalenessP95),
      joulesPerDay: added(figures.joulesPerDay, perDeviceBefore.joulesPerDay), minimumStateOfCharge: lowest,
      batteryCapacityJoules: configuration.device.battery.capacityJoules)
  }
}

/// What a fleet's threads share while they run: devices done, events handled, whether a stop was asked for,
/// and the progress callback, called at most every 250 ms (and once at the end).
final class FleetCounters: Sendable {
  let devices: Int
  let progress: (@Sendable (FleetProgress) -> Void)?
  let done = Atomic<Int>(0)
  let stopped = Atomic<Bool>(false)
  let events = Atomic<UInt64>(0)
  let lastReport = Atomic<Int64>(0)
  let clock = ContinuousClock()
  let start: ContinuousClock.Instant

  init(devices: Int, progress: (@Sendable (FleetProgress) -> Void)?) {
    self.devices = devices
    self.progress = progress
    start = clock.now
  }

  /// A device finished after handling `handled` events.
  func deviceFinished(events handled: UInt64) {
    let finished = done.wrappingAdd(1, ordering: .relaxed).newValue
    let total = events.wrappingAdd(handled, ordering: .relaxed).newValue
    guard let progress else { return }
    let elapsed = clock.now - start
    let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
    let previous = lastReport.load(ordering: .relaxed)
    if micros - previous >= 250_000 || finished == devices,
      lastReport.compareExchange(expected: previous, desired: micros, ordering: .relaxed).exchanged
    {
      progress(
        FleetProgress(devicesDone: finished, devices: devices, events: total, elapsedSeconds: Double(micros) / 1e6))
    }
  }
}
