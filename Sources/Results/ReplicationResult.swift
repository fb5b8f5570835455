import ResultStorage
import SimulationEngine

/// Everything one replication produced, summed over the devices simulated into it (one, or a fleet), in
/// dense arrays indexed by day, hour and instance.
///
/// Every accumulator is an integer (counts, microseconds, microjoules, parts per million), so adding devices
/// in any order, on any number of threads, gives the same result to the bit; floating-point values are
/// derived only when reports read them.
public struct ReplicationResult: Sendable {
  public private(set) var replication: Int
  public private(set) var days: Int
  public let instanceCount: Int
  /// Devices simulated into this result, and per instance how many of them had it installed.
  public package(set) var devices = 0
  public package(set) var instanceDevices: [Int] = []
  /// Requests by the hour they were made in, and over the run: see
  /// ``reloadCount(day:hour:instance:cause:outcome:)`` and ``total(instance:cause:outcome:)``.
  var reloads = ReloadTally()
  /// Budget remaining at the end of each hour, in thousandths, summed over devices: by hour and instance
  /// (``byInstance``).
  package var budgetMilli: [Int64] = []
  /// Per instance.
  public package(set) var staleness: [StalenessRecorder] = []
  /// Per instance: views while a burst of its kind's changes was under way (the model's `ScheduledChanges`).
  public package(set) var burstStaleness: [StalenessRecorder] = []
  /// By day and instance (``byInstance``): devices on which a request found no budget that day.
  package var exhaustedDevices: [Int32] = []
  /// By day and instance (``byInstance``): time of day (µs) of the last reload granted at once from budget,
  /// summed over the devices that had one, and their number.
  package var lastGrantMicros: [Int64] = []
  package var lastGrantDevices: [Int32] = []
  /// Per instance: timeline builds, CPU microseconds, network fetches and bytes fetched.
  public package(set) var builds: [Int] = []
  package var cpuMicros: [Int128] = []
  public package(set) var fetches: [Int] = []
  package var fetchByteTotals: [Int128] = []
  /// Events the engine handled.
  public package(set) var eventsHandled: UInt64 = 0
  /// The replication's event trajectory: see ``ReplicationFingerprint``.
  public package(set) var fingerprint = ReplicationFingerprint()
  /// Every reload that ran, and every request that failed as `stuck`, in order, when the run was traced.
  public package(set) var trace: [ReloadRecord]?
  /// The app's opens, force-quits and background launches, in order, when the run was traced.
  public package(set) var appTrace: [AppRecord]?
  /// Push counts by hour, target, priority and counter (``pushRows``, ``pushCounters``).
  var pushCounts = PushCounts()
  /// 1 + the number of Live Activity kinds.
  public let pushTargetCount: Int
  /// Every Live Activity start attempt, in order (kept for single-device runs only).
  public package(set) var activities: [ActivityRecord] = []
  package let keepsActivityRecords: Bool
  /// Live Activity outcomes summed by kind and ending (``activityEndings``).
  public package(set) var activityTotals: [ActivityTotals] = []
  /// What the user saw of each Live Activity kind at Lock Screen and Dynamic Island views.
  public package(set) var activityStaleness: [StalenessRecorder] = []
  /// Live Activity views by kind and surface, and those past the stale date (``activityViewCells``; see
  /// ``activityViews(kind:surface:)``).
  var activityViews: [Int] = []
  /// Microjoules by hour, subject (instances, then `device`, `widget_push`, Live Activity kinds, `app`) and
  /// component.
  package var energy = EnergyLedger()
  /// At the end of each hour, summed over devices: state of charge in parts per million, devices in Low
  /// Power Mode, devices that charged during the hour.
  package var stateOfChargePPM: [Int64] = []
  package var lowPowerDevices: [Int32] = []
  package var chargingDevices: [Int32] = []
  /// Per energy subject, summed over devices: each device's joules for the subject over its own battery's
  /// capacity, in parts per trillion (a fleet may vary the capacity per device).
  package var batteryShareParts: [Int128] = []
  /// Times a battery ran empty and its device switched off.
  public package(set) var drains = 0
  /// Fetches, bytes and pushes per UTC minute.
  public package(set) var serverLoad = ServerLoad()
  /// Per-device figures, for distributions across the fleet.
  public package(set) var perDevice = DeviceDistributions()
  /// The same per group of phones with the same widgets (the model's `DeviceGroups`; empty when there are none).
  public package(set) var perDeviceGroup: [DeviceDistributions] = []
  /// Chances for the app to run by hour, channel and outcome (``appWakeCells``; see
  /// ``appWakeCount(day:hour:channel:outcome:)``).
  var appWakes = AppWakeCounts()
  /// Per ``AppWakeChannel``: the app's fetches and their bytes.
  package var appFetches: [Int] = []
  package var appFetchByteTotals: [Int128] = []
  /// What the per-second load says (fleets), derived once the replication's devices are all in: see the
  /// model's `summariseSeconds(_:)`.
  public private(set) var perSecond = ServerSecondsSummary()
  /// The provisioning figures of ``perSecond``.
  public var provisioning: [ProvisioningFigures] { perSecond.provisioning }
  /// Per fleet-wide event: its fan-out and delivery latencies.
  public package(set) var eventDelivery: [EventDelivery] = []
  /// Days `0..<openedDays` of every figure over time are emptied for this run: all of them, unless the
  /// result was reset for reuse (see ``open(throughDay:)``).
  private(set) var openedDays = 0

  /// What one result's accumulators take in memory, in bytes, for a run of `days` days with `instanceCount`
  /// instances and `activityKinds` Live Activity kinds (each thread of a fleet run holds one, and the run
  /// one more to merge them into). The hourly reload counters dominate.
  public static func estimatedBytes(days: Int, instanceCount: Int, activityKinds: Int, fleet: Bool = false) -> Double {
    let hours = Double(days * 24)
    let instances = Double(instanceCount)
    let subjects = instances + 3 + Double(activityKinds)
    var perHour = instances * Double(causeCount * outcomeCount) * 4  // reloads (hourly counts)
    perHour += instances * 8  // budgetMilli
    perHour += subjects * Double(EnergyLedger.componentCount) * 16  // energy, Int128
    perHour += Double(1 + activityKinds) * 2 * Double(PushCounter.count) * 8
    perHour += 16  // state of charge, Low Power Mode, charging
    perHour += Double(AppWakeChannel.count * AppWakeOutcome.count) * 8
    let perMinute = Double(ServerSource.count) * 4 + 16 + 8  // server load by source, bytes, deliveries
    let perDay = instances * 16  // exhausted, last grant time and devices
    let perSecond = fleet ? Double(ServerSeconds.bytesPerDay) * Double(days) : 0
    return hours * perHour + Double(days * 1_440 + 28 * 60) * perMinute + Double(days) * perDay + perSecond
  }

  static let causeCount = ReloadCause.allCases.count
  static let outcomeCount = ReloadOutcome.allCases.count

  /// Every accumulator, listed once, with its size for a shape: allocation, merging and resetting walk it.
  static let fields: [any ResultField] = [
    Field(\.devices),
    Field(\.instanceDevices) { .empty($0.instanceCount) },
    Field(overTime: \.reloads) { ReloadTally(hours: $0.hours, pairs: $0.instanceCount * causeCount * outcomeCount) },
    Field(overTime: \.budgetMilli) { .empty($0.hours * $0.instanceCount) },
    Field(\.staleness) { .empty($0.instanceCount) },
    Field(\.burstStaleness) { .empty($0.instanceCount) },
    Field(overTime: \.exhaustedDevices) { .empty($0.days * $0.instanceCount) },
    Field(overTime: \.lastGrantMicros) { .empty($0.days * $0.instanceCount) },
    Field(overTime: \.lastGrantDevices) { .empty($0.days * $0.instanceCount) },
    Field(\.builds) { .empty($0.instanceCount) },
    Field(\.cpuMicros) { .empty($0.instanceCount) },
    Field(\.fetches) { .empty($0.instanceCount) },
    Field(\.fetchByteTotals) { .empty($0.instanceCount) },
    Field(\.eventsHandled),
    Field(\.fingerprint),
    Field(overTime: \.pushCounts) { PushCounts(count: $0.hours * (1 + $0.activityKinds) * 2 * PushCounter.count) },
    Field(\.activityTotals) { .empty($0.activityKinds * ActivityEnding.allCases.count) },
    Field(\.activityStaleness) { .empty($0.activityKinds) },
    Field(\.activityViews) { .empty($0.activityKinds * ActivitySurface.count * 2) },
    Field(overTime: \.energy) { EnergyLedger(hours: $0.hours, subjectCount: $0.energySubjects) },
    Field(overTime: \.stateOfChargePPM) { .empty($0.hours) },
    Field(overTime: \.lowPowerDevices) { .empty($0.hours) },
    Field(overTime: \.chargingDevices) { .empty($0.hours) },
    Field(\.batteryShareParts) { .empty($0.energySubjects) },
    Field(\.drains),
    Field(overTime: \.serverLoad) { ServerLoad(days: $0.days, perSecond: $0.perSecond) },
    Field(\.perDevice),
    Field(\.perDeviceGroup) { .empty($0.deviceGroups) },
    Field(overTime: \.appWakes) { AppWakeCounts(hours: $0.hours) },
    Field(\.appFetches) { _ in .empty(AppWakeChannel.count) },
    Field(\.appFetchByteTotals) { _ in .empty(AppWakeChannel.count) },
    Field(\.eventDelivery) { .empty($0.events) },
  ]

  package init(
    replication: Int, days: Int, instanceCount: Int, activityKinds: Int = 0, keepsActivityRecords: Bool = true,
    perSecond: Bool = false, events: Int = 0, deviceGroups: Int = 0
  ) {
    self.init(
      ResultShape(
        days: days, instanceCount: instanceCount, activityKinds: activityKinds, perSecond: perSecond, events: events,
        deviceGroups: deviceGroups), replication: replication, keepsActivityRecords: keepsActivityRecords)
  }

  /// An empty result of `shape`.
  package init(_ shape: ResultShape, replication: Int, keepsActivityRecords: Bool) {
    self.replication = replication
    days = shape.days
    instanceCount = shape.instanceCount
    self.keepsActivityRecords = keepsActivityRecords
    pushTargetCount = 1 + shape.activityKinds
    for field in ReplicationResult.fields { field.allocate(&self, shape) }
    openedDays = days
  }

  /// Whether the result has `shape` (and keeps Live Activity records as asked): emptied, it can stand for a
  /// new one.
  package func fits(_ shape: ResultShape, keepsActivityRecords: Bool) -> Bool {
    days == shape.days && instanceCount == shape.instanceCount && pushTargetCount == 1 + shape.activityKinds
      && eventDelivery.count == shape.events && serverLoad.seconds.isEmpty != shape.perSecond
      && self.keepsActivityRecords == keepsActivityRecords && perDeviceGroup.count == shape.deviceGroups
  }

  /// A result of no days and no instances, made once: what a finished device leaves in place of the result
  /// it hands back.
  package static let placeholder = ReplicationResult(replication: 0, days: 0, instanceCount: 0)

  /// Adds another result of the same scenario and replication (another worker's devices).
  public mutating func merge(_ other: ReplicationResult) {
    checkMergeable(other)
    var other = other
    for field in ReplicationResult.fields { field.merge(&self, &other) }
    perSecond = ServerSecondsSummary()  // derived from the sums: summarise again
  }

  /// Both results are of the same run and whole (neither still being written), for ``merge(_:)`` and
  /// ``absorb(_:)``.
  private func checkMergeable(_ other: ReplicationResult) {
    precondition(other.days == days && other.instanceCount == instanceCount, "merged results of different runs")
    precondition(openedDays == days && other.openedDays == days, "merged a result still being written")
  }

  /// Adds another result of the same scenario, as ``merge(_:)`` does, emptying in the same pass what its reuse
  /// would empty next (a replication's energy columns, busy minutes and reload pairs: see
  /// ``Accumulator/absorb(_:)``), each cell touched once while it is in the cache. `other` is left part
  /// emptied: it must be reset (``reset(replication:)``) before it is read or merged again.
  public mutating func absorb(_ other: inout ReplicationResult) {
    checkMergeable(other)
    for field in ReplicationResult.fields { field.absorb(&self, &other) }
    perSecond = ServerSecondsSummary()  // derived from the sums: summarise again
    other.openedDays = 0  // not whole: no merge before a reset
  }

  /// Adds the server requests the result kept as requests (``ServerLoad/keepsRequests``) to its minutes,
  /// for a result read minute by minute from now on (a run's sum).
  public mutating func applyKeptRequests() {
    serverLoad.applyKept()
  }

  /// Empties the result for another run of the same shape, reusing its memory (no new pages to fault in).
  /// Its figures over time are emptied day by day as the run reaches them (``open(throughDay:)``); until
  /// ``openAll()`` the result must not be read.
  public mutating func reset(replication: Int) {
    self.replication = replication
    for field in ReplicationResult.fields { field.reset(&self, leavingDays: true) }
    openedDays = 0
    trace = nil
    appTrace = nil
    perSecond = ServerSecondsSummary()
    activities.removeAll(keepingCapacity: true)
  }

  /// Empties days up to `day` (of every figure over time) not yet emptied since the result was reset: a device
  /// opens each day the day before it reaches it, so the cells it writes next are in the cache, not waiting
  /// in memory behind megabytes emptied at the start.
  package mutating func open(throughDay day: Int) {
    let through = Swift.min(day + 1, days)
    guard through > openedDays else { return }
    for field in ReplicationResult.timeFields { field.clear(&self, days: openedDays..<through, of: days) }
    openedDays = through
  }

  /// Empties every day not yet emptied: the result is whole (a device finished, or a fleet's worker starts).
  package mutating func openAll() {
    open(throughDay: days - 1)
  }

  static let timeFields = fields.filter(\.isOverTime)

  /// Leaves the first `days` (a warm-up) out of every figure over time; the result then covers the days after
  /// them (day 0 is the first day after the warm-up). Totals need nothing: devices add their warm-up elsewhere.
  public mutating func dropWarmup(days warmup: Int) {
    guard warmup > 0 else { return }
    precondition(warmup < days, "a warm-up as long as the run")
    precondition(openedDays == days, "dropped the warm-up of a result still being written")
    for field in ReplicationResult.fields { field.dropFirst(&self, days: warmup, of: days) }
    days -= warmup
    openedDays = days
  }
  /// Sets what the per-second load says (``perSecond``), derived by the model from the load and the scenario.
  package mutating func setSecondsSummary(_ summary: ServerSecondsSummary) {
    perSecond = summary
  }
}
