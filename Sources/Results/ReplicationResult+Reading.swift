import ResultStorage

/// Reading a replication's counts back: reloads, pushes and budgets by hour, instance, cause and outcome.
extension ReplicationResult {
  /// CPU seconds and bytes fetched per instance, over all devices.
  public var cpuSeconds: [Double] { cpuMicros.map { $0.double / 1e6 } }
  public var fetchBytes: [Double] { fetchByteTotals.map(\.double) }

  /// Counts one request of `instance`, made in hour `hourIndex`, that ended with `outcome`.
  package mutating func countReload(hourIndex: Int, instance: InstanceID, cause: ReloadCause, outcome: ReloadOutcome) {
    reloads.count(
      pair: ReloadPair(instance: instance.index, cause: cause, outcome: outcome).index, hourIndex: hourIndex)
  }

  /// Counts what became of a push sent in hour `hourIndex` (a push pending past the end counts in the last).
  package mutating func countPush(hourIndex: Int, target: PushTarget, priority: Int, _ counter: PushCounter) {
    let hour = Swift.min(hourIndex, days * 24 - 1)
    pushCounts.count(at: pushIndex(hourIndex: hour, target: target.index, priority: priority, counter: counter))
  }

  /// Requests made in that hour, with that cause, that ended with that outcome.
  public func reloadCount(day: Int, hour: Int, instance: Int, cause: ReloadCause, outcome: ReloadOutcome) -> Int {
    Int(
      reloads[
        pair: ReloadPair(instance: instance, cause: cause, outcome: outcome).index,
        hourIndex: ReplicationResult.hourIndex(day: day, hour: hour)])
  }

  /// Total requests of the instance over the whole run matching the filters (nil: any).
  public func total(instance: Int, cause: ReloadCause? = nil, outcome: ReloadOutcome? = nil) -> Int {
    // Raw values, not `allCases` (an array made at each call: the summary asks for many totals per replication).
    let causes = cause.map { $0.rawValue..<($0.rawValue + 1) } ?? 0..<ReplicationResult.causeCount
    let outcomes = outcome.map { $0.rawValue..<($0.rawValue + 1) } ?? 0..<ReplicationResult.outcomeCount
    var sum = 0
    for cause in causes {
      for outcome in outcomes { sum += reloads.totals[ReloadPair.layout.index(instance, cause, outcome)] }
    }
    return sum
  }

  /// Pushes sent in that hour to a target with a priority (10 or 5), by what became of them.
  public func pushCount(day: Int, hour: Int, target: Int, priority: Int, counter: PushCounter) -> Int {
    Int(
      pushCounts[
        pushIndex(
          hourIndex: ReplicationResult.hourIndex(day: day, hour: hour), target: target, priority: priority,
          counter: counter)])
  }

  /// Total pushes to a target (any priority) over the run.
  public func pushTotal(target: Int, counter: PushCounter) -> Int {
    var sum = 0
    guard pushCounts.mayHoldCounts else { return sum }
    for hourIndex in 0..<(days * 24) {
      sum += Int(pushCounts[pushIndex(hourIndex: hourIndex, target: target, priority: 10, counter: counter)])
      sum += Int(pushCounts[pushIndex(hourIndex: hourIndex, target: target, priority: 5, counter: counter)])
    }
    return sum
  }

  /// The cell of ``PushCounts`` that counts `counter` for pushes sent in hour `hourIndex` to a target with a
  /// priority (10 or 5).
  func pushIndex(hourIndex: Int, target: Int, priority: Int, counter: PushCounter) -> Int {
    let row = pushRows.index(hourIndex, target, priority == 10 ? 0 : 1)
    return ReplicationResult.pushCounters.index(row, counter.rawValue)
  }

  /// Budget remaining at the end of an hour: the mean over devices with the instance installed.
  public func budgetRemaining(day: Int, hour: Int, instance: Int) -> Double {
    let devices = instanceDevices[instance]
    guard devices > 0 else { return .nan }
    return Double(budgetMilli[byInstance.index(ReplicationResult.hourIndex(day: day, hour: hour), instance)]) / 1_000
      / Double(devices)
  }

  /// Whether some budgeted request of the instance found no budget on that day (on any device).
  public func budgetExhausted(day: Int, instance: Int) -> Bool {
    exhaustedDevices[byInstance.index(day, instance)] > 0
  }

  /// Share of the devices with the instance on which its budget ran dry that day.
  public func budgetExhaustedShare(day: Int, instance: Int) -> Double {
    let devices = instanceDevices[instance]
    return devices > 0 ? Double(exhaustedDevices[byInstance.index(day, instance)]) / Double(devices) : .nan
  }

  /// Hour of day (fractional) of the instance's last reload granted at once from budget that day, averaged
  /// over the devices that had one; nil if none did.
  public func lastBudgetGrantHour(day: Int, instance: Int) -> Double? {
    let devices = lastGrantDevices[byInstance.index(day, instance)]
    guard devices > 0 else { return nil }
    return Double(lastGrantMicros[byInstance.index(day, instance)]) / 3_600e6 / Double(devices)
  }
}
