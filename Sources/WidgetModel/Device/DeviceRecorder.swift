import Results
import SimulationEngine
import Statistics

/// The one way a device's parts write down what happened and report what it cost. Counts and records go
/// into the replication's result (the aggregate, or a warm-up's scratch), and what is about this phone alone
/// into its own ``DeviceRecord`` as well, at the same call; every energy booking is written in
/// the result's ledger and reported, as joules to drain, to the power system, which owns the battery and
/// what it has not yet drained (the ns-3 split: consumers report to the energy source, the ledger only
/// writes down). Components see it only through their narrow recorders (``ActivityRecording``,
/// ``AppWakeRecording``, ``EnergyRecording``).
///
/// The device reads the result through it but writes it only through its methods (`result` is
/// `private(set)`): what a device records is the list of them.
struct DeviceRecorder: ActivityRecording, AppWakeRecording {
  private(set) var result: ReplicationResult
  var power: PowerSystem
  /// The phone's own figures (the per-device reports').
  var record: DeviceRecord

  @inline(__always)
  mutating func book(_ joules: Double, hourIndex: Int, subject: Int, component: EnergyComponent) {
    power.report(result.energy.book(joules, hourIndex: hourIndex, subject: subject, component: component))
  }

  /// Two bookings to one subject in one hour, reported to the power system in their order.
  @inline(__always)
  mutating func book(
    _ first: Double, _ second: Double, hourIndex: Int, subject: Int, components: (EnergyComponent, EnergyComponent)
  ) {
    let booked = result.energy.book(first, second, hourIndex: hourIndex, subject: subject, components: components)
    power.report(booked.0)
    power.report(booked.1)
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

  /// One fetch of the app's on `channel`, of `bytes` bytes (the server's side is ``recordFetch(_:bytes:at:offset:)``).
  @inline(__always)
  mutating func countAppFetch(_ channel: AppWakeChannel, bytes: Double) {
    result.appFetches[channel.rawValue] += 1
    result.appFetchByteTotals[channel.rawValue] += Int128(Int64(nearest: bytes))
  }

  /// A view of `instance` whose content was `staleness` behind (`bucket`: its quantile sketch's), also among
  /// the burst views when its data kind is `inBurst`.
  @inline(__always)
  mutating func recordStaleness(instance: Int, _ staleness: SimDuration, bucket: QuantileSketch.Bucket, inBurst: Bool) {
    result.staleness[instance].record(staleness: staleness, bucket: bucket)
    if inBurst { result.burstStaleness[instance].record(staleness: staleness, bucket: bucket) }
  }

  /// A view of `instance` that showed its placeholder, counted at `age`, the age of the last good content.
  @inline(__always)
  mutating func recordPlaceholder(instance: Int, age: SimDuration, bucket: QuantileSketch.Bucket, inBurst: Bool) {
    result.staleness[instance].recordPlaceholder(age: age, bucket: bucket)
    if inBurst { result.burstStaleness[instance].recordPlaceholder(age: age, bucket: bucket) }
  }

  /// The budget `instance` had left as hour `hourIndex` closed.
  @inline(__always)
  mutating func recordBudget(hourIndex: Int, instance: Int, remaining: Double) {
    result.budgetMilli[result.byInstance.index(hourIndex, instance)] += Int64((remaining * 1_000).rounded())
  }

  /// The server sent fleet event `event`'s pushes to this device `lag` after the occurrence.
  mutating func recordEventPushSent(_ event: Int, after lag: SimDuration) {
    result.eventDelivery[event].sent(after: lag.microseconds)
  }

  /// The first push of fleet event `event` reached this device `latency` after the occurrence.
  mutating func recordEventPushDelivered(_ event: Int, after latency: SimDuration) {
    result.eventDelivery[event].delivered(after: latency.microseconds)
  }
}

/// The result's days and subjects, as the device reads them.
extension DeviceRecorder {
  /// The days of the result written into: the run's, or the warm-up's in its scratch result.
  var days: Int { result.days }
  var deviceSubject: Int { result.deviceSubject }
  /// The energy this phone's widgets, pushes, activities and app cost so far, in joules (its own share of
  /// the ledger, the device's baseline left out).
  var deviceWidgetJoules: Double { result.energy.deviceWidgetJoules(deviceSubject: result.deviceSubject) }
}

/// The result's life around a device: opened for it, days emptied ahead of it, the warm-up's scratch
/// exchanged for the aggregate, the device's own tallies folded in at its end, and the result handed back.
extension DeviceRecorder {
  /// The device's recorder: the result opened for it (`aggregate`, or a fresh one) with its server load
  /// started, its power system, and its own record of the measured hours. A broadcast channel's update is
  /// one request for the whole fleet: device 0 (in every run) books `broadcasts`.
  init(
    opening aggregate: consuming ReplicationResult?, _ configuration: borrowing ScenarioConfiguration, replication: Int,
    device: Int, broadcasts: BroadcastSchedule, _ shape: (instances: Int, groups: Int)
  ) {
    var result = DeviceRecorder.openResult(consume aggregate, configuration, replication: replication, shape)
    result.serverLoad.startDevice()
    if device == 0 { result.serverLoad.recordBroadcasts(broadcasts, days: result.days) }
    self.init(
      result: consume result, power: PowerSystem(configuration.device, sleep: configuration.user.sleep),
      record: DeviceRecord(measuredHours: configuration.warmupDays * 24..<configuration.simulatedDays * 24))
  }

  /// The aggregate the device adds to, opened for it: the caller's, moved in rather than copied (its arrays
  /// stay uniquely referenced, so adding to them never copies them), or a fresh one.
  static func openResult(
    _ aggregate: consuming ReplicationResult?, _ configuration: ScenarioConfiguration, replication: Int,
    _ shape: (instances: Int, groups: Int)
  ) -> ReplicationResult {
    var result =
      (consume aggregate)
      ?? ReplicationResult(
        replication: replication, days: configuration.simulatedDays, instanceCount: shape.instances,
        activityKinds: configuration.liveActivities.count, events: configuration.events.count,
        deviceGroups: shape.groups)
    result.energy.startDevice()
    result.energy.deviceFromHour = configuration.warmupDays * 24
    // A reused result is emptied day by day, a day ahead of the device (see ``ReplicationResult/open(throughDay:)``).
    result.open(throughDay: configuration.warmupDays + 1)
    return result
  }

  /// Writes into `other` from now on, and leaves the result written so far in it: the warm-up's scratch
  /// in for the aggregate, or back out at the warm-up's end.
  mutating func exchangeResult(_ other: inout ReplicationResult) {
    swap(&result, &other)
  }

  /// Midnight before day `day`: empties that day's cells of a reused result, and adds the day's server
  /// requests while their minutes are still in the cache (unless the result keeps them for a sum).
  mutating func openDay(_ day: Int) {
    result.open(throughDay: day)
    result.serverLoad.applyPendingUnlessKept()
  }

  /// The run's end: every day's cells emptied (those the day-by-day opening had not reached yet).
  mutating func openAllDays() {
    result.openAll()
  }

  /// The device's own tallies at its end: its handled events and trajectory (as device `device`), the
  /// builds of its instances, the days a budget ran out and the day's last grant.
  mutating func recordTally(_ tally: borrowing DeviceTally, device: Int, handledEvents: UInt64) {
    result.eventsHandled += handledEvents + tally.deferredFirings
    result.fingerprint.add(device: device, tally.trajectory)
    result.devices += 1
    for index in tally.builds.indices {
      let builds = tally.builds[index]
      result.builds[index] += builds.builds
      result.cpuMicros[index] += builds.cpuMicros
      result.fetches[index] += builds.fetches
      result.fetchByteTotals[index] += builds.fetchBytes
    }
    for (cell, exhausted) in tally.exhausted.enumerated() where exhausted { result.exhaustedDevices[cell] += 1 }
    for (cell, time) in tally.lastGrant.enumerated() where time >= 0 {
      result.lastGrantMicros[cell] += time
      result.lastGrantDevices[cell] += 1
    }
  }

  /// Instance `instance` is on this device's screens (the devices a budget share is over).
  mutating func countInstalled(instance: Int) {
    result.instanceDevices[instance] += 1
  }

  /// A Live Activity of this device's measured days, timed from their start (`shift` after the run's).
  mutating func recordActivity(_ record: ActivityRecord, simulationEnd end: SimTime, shiftedBack shift: SimDuration) {
    let cell = ReplicationResult.activityEndings.index(record.kind.index, record.ending.rawValue)
    result.activityTotals[cell].add(record, simulationEnd: end)
    if result.keepsActivityRecords { result.activities.append(record.shifted(back: shift)) }
  }

  /// Each subject's energy on this phone over its own battery (fleets may vary the capacity), in integer
  /// parts.
  mutating func recordBatteryShares() {
    let partsPerMicrojoule = ReplicationResult.batteryShareScale / 1e6 / power.battery.capacity
    for subject in result.batteryShareParts.indices {
      let share = Double(result.energy.deviceMicrojoules(subject: subject)) * partsPerMicrojoule
      result.batteryShareParts[subject] += Int128(Int64(clampedNearest: share))
    }
  }

  /// A traced device's reloads and app records, as the result keeps them.
  mutating func keepTrace(_ reloads: [ReloadRecord]?, app: [AppRecord]?) {
    result.trace = reloads
    result.appTrace = app
  }

  /// Hands the result back without leaving a second reference to its arrays behind.
  mutating func takeResult() -> ReplicationResult {
    result.serverLoad.applyPendingUnlessKept()
    // A shared empty result, not a new one: making one allocates every field, a large share of a light
    // phone's replication. Swapped in, not assigned after a copy: the copy retained and released every
    // array of the result.
    var taken = ReplicationResult.placeholder
    swap(&taken, &result)
    return taken
  }
}
