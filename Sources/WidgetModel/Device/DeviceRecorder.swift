import Results
import SimulationEngine

/// The one way a device's parts write down what happened and report what it cost. Counts and records go
/// into the replication's result (the aggregate, or a warm-up's scratch), and what is about this phone alone
/// into its own ``DeviceRecord`` as well, at the same call; every energy booking is written in
/// the result's ledger and reported, as joules to drain, to the power system, which owns the battery and
/// what it has not yet drained (the ns-3 split: consumers report to the energy source, the ledger only
/// writes down). Components see it only through their narrow recorders (``ActivityRecording``,
/// ``AppWakeRecording``, ``EnergyRecording``).
struct DeviceRecorder: ActivityRecording, AppWakeRecording {
  var result: ReplicationResult
  var power: PowerSystem
  /// The phone's own figures (the per-device reports').
  var record: DeviceRecord

  @inline(__always)
  mutating func book(_ joules: Double, hourIndex: Int, subject: Int, component: EnergyComponent) {
    power.report(result.energy.book(joules, hourIndex: hourIndex, subject: subject, component: component))
  }

  /// Closes the power system's hour `hourIndex`: its baseline and usage booked, the battery drained by
  /// everything reported since the last close.
  mutating func closePowerHour(_ hourIndex: Int, hourlyNetwork: NetworkKind?) -> PowerSystem.ClosedHour {
    power.closeHour(
      hourIndex, hourlyNetwork: hourlyNetwork, deviceSubject: result.deviceSubject, ledger: &result.energy)
  }

  /// The power system's hour as it closed: the run's hourly battery figures, and the phone's own.
  mutating func recordPowerHour(_ hourIndex: Int, _ closed: PowerSystem.ClosedHour) {
    if closed.transition == .switchedOff { result.drains += 1 }
    let stateOfChargePPM = Int64((closed.stateOfCharge * 1e6).rounded())
    result.stateOfChargePPM[hourIndex] += stateOfChargePPM
    record.closeHour(hourIndex, stateOfChargePPM: stateOfChargePPM)
    if closed.lowPowerMode { result.lowPowerDevices[hourIndex] += 1 }
    if closed.charging { result.chargingDevices[hourIndex] += 1 }
  }

  /// The phone's totals at its end, per measured day: into the run's per-device distributions (and its
  /// group's, `group`), and its own record.
  mutating func recordDevice(
    reloadsPerDay reloads: Double, stalenessP95 staleness: Double?, joulesPerDay joules: Double, group: Int?
  ) {
    record.close(reloadsPerDay: reloads, stalenessP95Seconds: staleness, joulesPerDay: joules)
    result.perDevice.add(reloadsPerDay: reloads, stalenessP95: staleness, joulesPerDay: joules)
    if let group {
      result.perDeviceGroup[group].add(reloadsPerDay: reloads, stalenessP95: staleness, joulesPerDay: joules)
    }
  }

  /// One reload request of `instance`, in the hour it was made, with its cause and the outcome it met.
  @inline(__always)
  mutating func countReload(hourIndex: Int, instance: InstanceID, cause: ReloadCause, outcome: ReloadOutcome) {
    result.countReload(hourIndex: hourIndex, instance: instance, cause: cause, outcome: outcome)
  }

  /// A fetch of `amount` bytes the server received from `source` at `time` (the device's clock, `offset`
  /// ahead of UTC).
  @inline(__always)
  mutating func recordFetch(_ source: ServerSource, bytes amount: Double, at time: SimTime, offset: SimDuration) {
    result.serverLoad.recordFetch(source, bytes: amount, at: time, offset: offset)
  }

  /// A push from `source` the server sent at `time`, or `delivered` to the device then.
  @inline(__always)
  mutating func recordPush(_ source: ServerSource, delivered: Bool, at time: SimTime, offset: SimDuration) {
    result.serverLoad.recordPush(source, delivered: delivered, at: time, offset: offset)
  }

  @inline(__always)
  mutating func countPush(hourIndex: Int, target: PushTarget, priority: Int, _ counter: PushCounter) {
    result.countPush(hourIndex: hourIndex, target: target, priority: priority, counter)
  }

  @inline(__always)
  mutating func recordActivityPush(delivered: Bool, at time: SimTime, offset: SimDuration) {
    recordPush(.activityPush, delivered: delivered, at: time, offset: offset)
  }

  @inline(__always)
  mutating func recordActivityStaleness(kind: Int, _ staleness: SimDuration) {
    result.activityStaleness[kind].record(staleness: staleness)
  }

  @inline(__always)
  mutating func countActivityView(kind: Int, _ surface: ActivitySurface, pastStaleDate: Bool) {
    result.countActivityView(kind: kind, surface, pastStaleDate: pastStaleDate)
  }

  func activitySubject(_ kind: Int) -> Int { result.activitySubject(kind) }

  @inline(__always)
  mutating func countAppWake(hourIndex: Int, _ channel: AppWakeChannel, _ outcome: AppWakeOutcome) {
    result.countAppWake(hourIndex: hourIndex, channel, outcome)
  }
}
