import SimulationEngine

/// Everything one replication produced, summed over the devices simulated into it (one, or a fleet), in
/// dense arrays indexed by day, hour and instance.
///
/// Every accumulator is an integer (counts, microseconds, microjoules, parts per million), so adding devices
/// in any order, on any number of threads, gives the same result to the bit; floating-point values are
/// derived only when reports read them.
public struct ReplicationResult: Sendable {
  public private(set) var replication: Int
  public let days: Int
  public let instanceCount: Int
  /// Devices simulated into this result, and per instance how many of them had it installed.
  public internal(set) var devices = 0
  public internal(set) var instanceDevices: [Int]
  /// Counts by request time: see ``reloadCount(day:hour:instance:cause:outcome:)``.
  var reloadCounts: [UInt64]
  /// The same summed over the run, by `(instance * causes + cause) * outcomes + outcome`.
  var reloadTotals: [Int]
  /// Budget remaining at the end of each hour, in thousandths, summed over devices, by
  /// `(day * 24 + hour) * instances + instance`.
  var budgetMilli: [Int64]
  /// Per instance.
  public internal(set) var staleness: [StalenessRecorder]
  /// Per `day * instances + instance`: devices on which a request found no budget that day.
  var exhaustedDevices: [Int32]
  /// Per `day * instances + instance`: time of day (µs) of the last reload granted at once from budget,
  /// summed over the devices that had one, and their number.
  var lastGrantMicros: [Int64]
  var lastGrantDevices: [Int32]
  /// Per instance: timeline builds, CPU microseconds, network fetches and bytes fetched.
  public internal(set) var builds: [Int]
  var cpuMicros: [Int128]
  public internal(set) var fetches: [Int]
  var fetchByteTotals: [Int128]
  /// Events the engine handled.
  public internal(set) var eventsHandled: UInt64 = 0
  /// The replication's event trajectory: see ``ReplicationFingerprint``.
  public internal(set) var fingerprint = ReplicationFingerprint()
  /// Every reload that ran, in order, when the run was traced.
  public internal(set) var trace: [ReloadRecord]?
  /// Push counts by `(((hourIndex * pushTargetCount + target) * 2 + priorityIndex) * 4 + counter)`; target 0 is
  /// the app's widget push topic, target 1 + a the Live Activity kind a; priority index 0 is 10, 1 is 5.
  var pushCounts: [UInt64]
  /// 1 + the number of Live Activity kinds.
  public let pushTargetCount: Int
  /// Every Live Activity start attempt, in order (kept for single-device runs only).
  public internal(set) var activities: [ActivityRecord] = []
  let keepsActivityRecords: Bool
  /// Live Activity outcomes summed by kind and ending: `[kind * ActivityEnding.count + ending]`.
  public internal(set) var activityTotals: [ActivityTotals]
  /// What the user saw of each Live Activity kind at Lock Screen views.
  public internal(set) var activityStaleness: [StalenessRecorder]
  /// Microjoules by hour, subject (instances, then `device`, `widget_push`, Live Activity kinds) and component.
  var energy: EnergyLedger
  /// At the end of each hour, summed over devices: state of charge in parts per million, devices in Low
  /// Power Mode, devices that charged during the hour.
  var stateOfChargePPM: [Int64]
  var lowPowerDevices: [Int32]
  var chargingDevices: [Int32]
  /// Times a battery ran empty and its device switched off.
  public internal(set) var drains = 0
  /// Fetches, bytes and pushes per UTC minute.
  public internal(set) var serverLoad: ServerLoad
  /// Per-device figures, for distributions across the fleet.
  public internal(set) var perDevice: DeviceDistributions

  static let causeCount = ReloadCause.allCases.count
  static let outcomeCount = ReloadOutcome.allCases.count

  init(replication: Int, days: Int, instanceCount: Int, activityKinds: Int = 0, keepsActivityRecords: Bool = true) {
    self.replication = replication
    self.days = days
    self.instanceCount = instanceCount
    self.keepsActivityRecords = keepsActivityRecords
    let hours = days * 24
    instanceDevices = Array(repeating: 0, count: instanceCount)
    pushTargetCount = 1 + activityKinds
    pushCounts = Array(repeating: 0, count: hours * (1 + activityKinds) * 2 * 4)
    activityTotals = Array(repeating: ActivityTotals(), count: activityKinds * ActivityEnding.allCases.count)
    activityStaleness = Array(repeating: StalenessRecorder(), count: activityKinds)
    energy = EnergyLedger(hours: hours, subjectCount: instanceCount + 2 + activityKinds)
    stateOfChargePPM = Array(repeating: 0, count: hours)
    lowPowerDevices = Array(repeating: 0, count: hours)
    chargingDevices = Array(repeating: 0, count: hours)
    reloadCounts = Array(
      repeating: 0, count: hours * instanceCount * ReplicationResult.causeCount * ReplicationResult.outcomeCount)
    budgetMilli = Array(repeating: 0, count: hours * instanceCount)
    reloadTotals = Array(
      repeating: 0, count: instanceCount * ReplicationResult.causeCount * ReplicationResult.outcomeCount)
    staleness = Array(repeating: StalenessRecorder(), count: instanceCount)
    exhaustedDevices = Array(repeating: 0, count: days * instanceCount)
    lastGrantMicros = Array(repeating: 0, count: days * instanceCount)
    lastGrantDevices = Array(repeating: 0, count: days * instanceCount)
    builds = Array(repeating: 0, count: instanceCount)
    cpuMicros = Array(repeating: 0, count: instanceCount)
    fetches = Array(repeating: 0, count: instanceCount)
    fetchByteTotals = Array(repeating: 0, count: instanceCount)
    serverLoad = ServerLoad(days: days)
    perDevice = DeviceDistributions()
  }

  /// Adds another result of the same scenario and replication (another worker's devices).
  public mutating func merge(_ other: ReplicationResult) {
    precondition(other.days == days && other.instanceCount == instanceCount, "merged results of different runs")
    devices += other.devices
    for index in instanceDevices.indices { instanceDevices[index] += other.instanceDevices[index] }
    ReplicationResult.add(&reloadCounts, other.reloadCounts)
    ReplicationResult.add(&reloadTotals, other.reloadTotals)
    ReplicationResult.add(&budgetMilli, other.budgetMilli)
    for index in staleness.indices { staleness[index].merge(other.staleness[index]) }
    ReplicationResult.add(&exhaustedDevices, other.exhaustedDevices)
    ReplicationResult.add(&lastGrantMicros, other.lastGrantMicros)
    ReplicationResult.add(&lastGrantDevices, other.lastGrantDevices)
    ReplicationResult.add(&builds, other.builds)
    ReplicationResult.add(&cpuMicros, other.cpuMicros)
    ReplicationResult.add(&fetches, other.fetches)
    ReplicationResult.add(&fetchByteTotals, other.fetchByteTotals)
    eventsHandled += other.eventsHandled
    fingerprint.merge(other.fingerprint)
    ReplicationResult.add(&pushCounts, other.pushCounts)
    for index in activityTotals.indices { activityTotals[index].merge(other.activityTotals[index]) }
    for index in activityStaleness.indices { activityStaleness[index].merge(other.activityStaleness[index]) }
    ReplicationResult.add(&energy.microjoules, other.energy.microjoules)
    ReplicationResult.add(&stateOfChargePPM, other.stateOfChargePPM)
    ReplicationResult.add(&lowPowerDevices, other.lowPowerDevices)
    ReplicationResult.add(&chargingDevices, other.chargingDevices)
    drains += other.drains
    serverLoad.merge(other.serverLoad)
    perDevice.merge(other.perDevice)
  }

  /// Empties the result for another run of the same shape, reusing its memory (no new pages to fault in).
  public mutating func reset(replication: Int) {
    self.replication = replication
    devices = 0
    ReplicationResult.zero(&instanceDevices)
    ReplicationResult.zero(&reloadCounts)
    ReplicationResult.zero(&reloadTotals)
    ReplicationResult.zero(&budgetMilli)
    staleness = Array(repeating: StalenessRecorder(), count: staleness.count)
    ReplicationResult.zero(&exhaustedDevices)
    ReplicationResult.zero(&lastGrantMicros)
    ReplicationResult.zero(&lastGrantDevices)
    ReplicationResult.zero(&builds)
    ReplicationResult.zero(&cpuMicros)
    ReplicationResult.zero(&fetches)
    ReplicationResult.zero(&fetchByteTotals)
    eventsHandled = 0
    fingerprint = ReplicationFingerprint()
    trace = nil
    ReplicationResult.zero(&pushCounts)
    activities.removeAll(keepingCapacity: true)
    activityTotals = Array(repeating: ActivityTotals(), count: activityTotals.count)
    activityStaleness = Array(repeating: StalenessRecorder(), count: activityStaleness.count)
    ReplicationResult.zero(&energy.microjoules)
    energy.undrained = 0
    energy.deviceWidgetJoules = 0
    ReplicationResult.zero(&stateOfChargePPM)
    ReplicationResult.zero(&lowPowerDevices)
    ReplicationResult.zero(&chargingDevices)
    drains = 0
    serverLoad.reset()
    perDevice = DeviceDistributions()
  }

  /// Whether a configuration's results have this shape (days, instances, Live Activity kinds).
  public func fits(_ configuration: ScenarioConfiguration) -> Bool {
    days == configuration.days && instanceCount == configuration.instances.count
      && pushTargetCount == 1 + configuration.liveActivities.count
  }

  static func zero<Value: FixedWidthInteger>(_ values: inout [Value]) {
    values.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
  }

  static func add<Value: FixedWidthInteger>(_ target: inout [Value], _ source: [Value]) {
    for index in target.indices { target[index] += source[index] }
  }

  // MARK: - Reading

  /// CPU seconds and bytes fetched per instance, over all devices.
  public var cpuSeconds: [Double] { cpuMicros.map { Double($0) / 1e6 } }
  public var fetchBytes: [Double] { fetchByteTotals.map(Double.init) }

  /// Mean state of charge (0...1) at the end of each hour.
  public var stateOfCharge: [Double] {
    stateOfChargePPM.map { devices > 0 ? Double($0) / 1e6 / Double(devices) : .nan }
  }

  /// Share of devices in Low Power Mode / charging at each hour (0 or 1 for one device).
  public var lowPowerModeShare: [Double] { lowPowerDevices.map { devices > 0 ? Double($0) / Double(devices) : 0 } }
  public var chargingShare: [Double] { chargingDevices.map { devices > 0 ? Double($0) / Double(devices) : 0 } }

  /// For one device: whether Low Power Mode was on / it charged at each hour (for a fleet: most devices).
  public var lowPowerMode: [Bool] { lowPowerDevices.map { Int($0) * 2 > devices } }
  public var charging: [Bool] { chargingDevices.map { Int($0) * 2 > devices } }

  func countIndex(hourIndex: Int, instance: Int, cause: ReloadCause, outcome: ReloadOutcome) -> Int {
    ((hourIndex * instanceCount + instance) * ReplicationResult.causeCount + cause.rawValue)
      * ReplicationResult.outcomeCount + outcome.rawValue
  }

  /// Requests made in that hour, with that cause, that ended with that outcome.
  public func reloadCount(day: Int, hour: Int, instance: Int, cause: ReloadCause, outcome: ReloadOutcome) -> Int {
    Int(reloadCounts[countIndex(hourIndex: day * 24 + hour, instance: instance, cause: cause, outcome: outcome)])
  }

  /// Total requests of the instance over the whole run matching the filters (nil: any).
  public func total(instance: Int, cause: ReloadCause? = nil, outcome: ReloadOutcome? = nil) -> Int {
    var sum = 0
    for candidate in ReloadCause.allCases where cause == nil || candidate == cause {
      for result in ReloadOutcome.allCases where outcome == nil || result == outcome {
        sum +=
          reloadTotals[
            (instance * ReplicationResult.causeCount + candidate.rawValue) * ReplicationResult.outcomeCount
              + result.rawValue]
      }
    }
    return sum
  }

  /// Energy subjects: widget instances 0..<instanceCount, then these.
  public var deviceSubject: Int { instanceCount }
  public var widgetPushSubject: Int { instanceCount + 1 }
  public func activitySubject(_ kind: Int) -> Int { instanceCount + 2 + kind }
  public var energySubjectCount: Int { energy.subjectCount }

  /// Joules of a subject's component in one hour.
  public func joules(day: Int, hour: Int, subject: Int, component: EnergyComponent) -> Double {
    energy.value(hourIndex: day * 24 + hour, subject: subject, component: component)
  }

  /// Joules of a subject over the run, for one component or all.
  public func totalJoules(subject: Int, component: EnergyComponent? = nil) -> Double {
    var sum = 0.0
    for hourIndex in 0..<(days * 24) {
      for candidate in EnergyComponent.allCases where component == nil || candidate == component {
        sum += energy.value(hourIndex: hourIndex, subject: subject, component: candidate)
      }
    }
    return sum
  }

  /// Pushes sent in that hour to a target with a priority (10 or 5), by what became of them.
  public func pushCount(day: Int, hour: Int, target: Int, priority: Int, counter: PushCounter) -> Int {
    Int(pushCounts[pushIndex(hourIndex: day * 24 + hour, target: target, priority: priority, counter: counter)])
  }

  /// Total pushes to a target (any priority) over the run.
  public func pushTotal(target: Int, counter: PushCounter) -> Int {
    var sum = 0
    for hourIndex in 0..<(days * 24) {
      for priority in [10, 5] {
        sum += Int(pushCounts[pushIndex(hourIndex: hourIndex, target: target, priority: priority, counter: counter)])
      }
    }
    return sum
  }

  func pushIndex(hourIndex: Int, target: Int, priority: Int, counter: PushCounter) -> Int {
    (((hourIndex * pushTargetCount + target) * 2 + (priority == 10 ? 0 : 1)) * 4) + counter.rawValue
  }

  /// Budget remaining at the end of an hour: the mean over devices with the instance installed.
  public func budgetRemaining(day: Int, hour: Int, instance: Int) -> Double {
    let devices = instanceDevices[instance]
    guard devices > 0 else { return .nan }
    return Double(budgetMilli[(day * 24 + hour) * instanceCount + instance]) / 1_000 / Double(devices)
  }

  /// Whether some budgeted request of the instance found no budget on that day (on any device).
  public func budgetExhausted(day: Int, instance: Int) -> Bool {
    exhaustedDevices[day * instanceCount + instance] > 0
  }

  /// Share of the devices with the instance on which its budget ran dry that day.
  public func budgetExhaustedShare(day: Int, instance: Int) -> Double {
    let devices = instanceDevices[instance]
    return devices > 0 ? Double(exhaustedDevices[day * instanceCount + instance]) / Double(devices) : .nan
  }

  /// Hour of day (fractional) of the instance's last reload granted at once from budget that day, averaged
  /// over the devices that had one; nil if none did.
  public func lastBudgetGrantHour(day: Int, instance: Int) -> Double? {
    let devices = lastGrantDevices[day * instanceCount + instance]
    guard devices > 0 else { return nil }
    return Double(lastGrantMicros[day * instanceCount + instance]) / 3_600e6 / Double(devices)
  }
}

/// What became of pushes: every push sent is counted as sent, and once more as delivered, superseded or
/// throttled (unless still pending when the simulation ends).
public enum PushCounter: Int, CaseIterable, Sendable {
  case sent
  case delivered
  /// Replaced by a newer push to the same topic before delivery (APNs keeps one), or discarded because its
  /// Live Activity ended first.
  case superseded
  /// Over the push budget: dropped.
  case throttled

  public var name: String {
    switch self {
    case .sent: "sent"
    case .delivered: "delivered"
    case .superseded: "superseded"
    case .throttled: "throttled"
    }
  }
}

/// One attempt to start a Live Activity and, if it started, its life.
public struct ActivityRecord: Sendable {
  /// Index of the Live Activity kind in the scenario.
  public let definition: Int
  /// `id#n`: the n-th start attempt of that kind.
  public let label: String
  public let startTime: SimTime
  /// Why the start was refused, if it was: `cap` (too many concurrent) or `push_budget` (push-to-start).
  public internal(set) var rejection: String?
  public internal(set) var updatesSent = 0
  public internal(set) var updatesDelivered = 0
  public internal(set) var updatesThrottled = 0
  public internal(set) var updatesSuperseded = 0
  /// Delivered updates whose rendering passed the memory ceiling (the old content stays).
  public internal(set) var updatesJetsam = 0
  /// `app`, `push`, `system`, or `running` if it was still active when the simulation ended.
  public internal(set) var endedBy = "running"
  public internal(set) var endTime: SimTime?
  /// When it left the Lock Screen; nil if it was still there at the end.
  public internal(set) var dismissTime: SimTime?

  /// Seconds active, up to `end` (the end of the simulation) when still running.
  public func activeSeconds(simulationEnd end: SimTime) -> Double {
    guard rejection == nil else { return 0 }
    return ((endTime ?? end) - startTime).seconds
  }

  /// Seconds on the Lock Screen after it ended.
  public func lockScreenSeconds(simulationEnd end: SimTime) -> Double {
    guard rejection == nil, let endTime else { return 0 }
    return ((dismissTime ?? end) - endTime).seconds
  }
}

/// One reload that ran: when, for which request, of which instance, why and how it was granted.
public struct ReloadRecord: Sendable, Equatable {
  public let time: SimTime
  public let requestTime: SimTime
  public let instance: Int
  public let cause: ReloadCause
  public let outcome: ReloadOutcome
}
