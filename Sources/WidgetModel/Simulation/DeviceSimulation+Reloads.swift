import SimulationEngine

/// Reload requests and WidgetKit's decisions on them: exempt or budgeted, granted, withheld, coalesced.
extension DeviceSimulation {
  /// A reload request for instance `index`. Exempt causes run at once; budgeted ones run at once if the
  /// budget, the minimum interval and the user's sleep allow, else wait (one waiting request per instance:
  /// later ones coalesce into it).
  mutating func request(_ index: Int, cause: ReloadCause, _ scheduler: inout Scheduler) {
    guard !poweredOff && instances[index].installed else { return }
    let now = scheduler.now
    guard cause.isBudgeted else {
      reload(index, cause: cause, outcome: .grantedExempt, requestTime: now, budgeted: false, &scheduler)
      return
    }
    if instances[index].pending != nil {
      count(now, index, cause, .coalesced)
      return
    }
    switch blocker(index, at: now) {
    case .none:
      grantFromBudget(index, cause: cause, requestTime: now, outcome: .grantedBudget, &scheduler)
    case .budget:
      markExhausted(index, at: now)
      instances[index].pending = PendingRequest(cause: cause, requestTime: now, waitedForBudget: true)
      scheduleRetry(index, &scheduler)
    case .deferred:
      instances[index].pending = PendingRequest(cause: cause, requestTime: now, waitedForBudget: false)
      scheduleRetry(index, &scheduler)
    }
  }

  /// Tries the instance's waiting request again.
  mutating func attemptPending(_ index: Int, _ scheduler: inout Scheduler) {
    guard let pending = instances[index].pending else { return }
    let now = scheduler.now
    switch blocker(index, at: now) {
    case .none:
      let outcome: ReloadOutcome = pending.waitedForBudget ? .withheldGranted : .deferredGranted
      grantFromBudget(index, cause: pending.cause, requestTime: pending.requestTime, outcome: outcome, &scheduler)
    case .budget:
      markExhausted(index, at: now)
      instances[index].pending?.waitedForBudget = true
      scheduleRetry(index, &scheduler)
    case .deferred:
      scheduleRetry(index, &scheduler)
    }
  }

  /// What stops a budgeted reload of the instance now. An empty budget takes precedence.
  mutating func blocker(_ index: Int, at now: SimTime) -> GrantBlocker {
    if budgetSettings.debug { return .none }
    instances[index].budget.advance(to: now)
    if !instances[index].budget.hasBudget { return .budget }
    if system.deferWhileAsleep && asleep { return .deferred }
    if let last = instances[index].lastReload, now < last + budgetSettings.minInterval { return .deferred }
    return .none
  }

  /// Schedules the next attempt of the instance's waiting request at the earliest time it could succeed;
  /// with no such time (an allowance of zero) the next hour tick looks again.
  mutating func scheduleRetry(_ index: Int, _ scheduler: inout Scheduler) {
    let now = scheduler.now
    var time = instances[index].budget.nextAvailable(after: now)
    if let last = instances[index].lastReload { time = Swift.max(time, last + budgetSettings.minInterval) }
    if system.deferWhileAsleep && asleep { time = Swift.max(time, nextWake) }
    if let retry = instances[index].retryEvent { scheduler.cancel(retry) }
    instances[index].retryEvent = nil
    guard time < ReloadBudget.never else { return }
    let at = Swift.max(time, now + .microseconds(1))
    instances[index].retryEvent = scheduler.schedule(
      at: at, kind: DeviceEventKind.retry.eventKind, target: UInt32(index))
  }

  mutating func grantFromBudget(
    _ index: Int, cause: ReloadCause, requestTime: SimTime, outcome: ReloadOutcome, _ scheduler: inout Scheduler
  ) {
    let now = scheduler.now
    instances[index].pending = nil
    if let retry = instances[index].retryEvent { scheduler.cancel(retry) }
    instances[index].retryEvent = nil
    // A stuck extension is not launched, so nothing is spent.
    if !instances[index].stuck {
      instances[index].budget.advance(to: now)
      instances[index].budget.spend(at: now)
      if outcome == .grantedBudget {
        let day = Int(now.microseconds / DeviceSimulation.day.microseconds)
        deviceLastGrant[day * instances.count + index] = now.microseconds % DeviceSimulation.day.microseconds
      }
    }
    reload(index, cause: cause, outcome: outcome, requestTime: requestTime, budgeted: true, &scheduler)
  }

  /// A granted reload: settle any waiting request, build the timeline, count how it went, schedule the
  /// policy's next reload. `outcome` is how it was granted; a failed build counts as `jetsam` or `timeout`
  /// instead, and a stuck instance's as `stuck`.
  mutating func reload(
    _ index: Int, cause: ReloadCause, outcome: ReloadOutcome, requestTime: SimTime, budgeted: Bool,
    _ scheduler: inout Scheduler
  ) {
    let now = scheduler.now
    if let pending = instances[index].pending {
      count(pending.requestTime, index, pending.cause, .coalesced)
      instances[index].pending = nil
      if let retry = instances[index].retryEvent { scheduler.cancel(retry) }
      instances[index].retryEvent = nil
    }
    if instances[index].stuck {
      count(requestTime, index, cause, .stuck)
      return
    }
    let built = build(index, at: now)
    let final: ReloadOutcome
    switch built {
    case .success:
      final = outcome
      instances[index].hasContent = true
      instances[index].firstUnseenChange = nil
    case .jetsam:
      final = .jetsam
      if system.jetsamStuckProbability > 0 && instances[index].buildStream.bernoulli(system.jetsamStuckProbability) {
        instances[index].stuck = true
      }
    case .timeout:
      final = .timeout
      instances[index].hasContent = false
    }
    count(requestTime, index, cause, final)
    if final.isReload { deviceReloads += 1 }
    if trace != nil {
      trace?.append(ReloadRecord(time: now, requestTime: requestTime, instance: index, cause: cause, outcome: final))
    }
    instances[index].lastReload = now
    // After a failed build WidgetKit tries again on the old timeline's schedule.
    schedulePolicy(index, &scheduler)
    if budgeted && system.coalesceWindow > .zero {
      let horizon = now + system.coalesceWindow
      for other in instances.indices where other != index {
        if let event = instances[other].policyEvent, instances[other].policyTime <= horizon {
          instances[other].policyEvent = scheduler.supersede(
            event, at: now, kind: DeviceEventKind.policyReload.eventKind, target: UInt32(other))
          instances[other].policyTime = now
        }
      }
    }
  }

  /// Draws what building the timeline costs and whether it survives: CPU time; a network fetch and its
  /// size; peak memory (`memory + (entries - 1) * memory_per_entry`). Killed above the memory ceiling
  /// (jetsam); cut off when CPU plus fetch time passes the time limit.
  mutating func build(_ index: Int, at now: SimTime) -> BuildResult {
    let stream = instances[index].buildStream
    result.builds[index] += 1
    let cpu = SampleLimits.duration(buildSettings[index].cpuSeconds.sample(stream))
    result.cpuMicros[index] += Int128(Int64(nearest: cpu * 1e6))
    bookCPU(seconds: cpu, subject: index, at: now)
    var seconds = cpu
    if stream.bernoulli(buildSettings[index].fetchProbability) {
      let bytes = SampleLimits.size(buildSettings[index].fetchBytes.sample(stream))
      result.fetches[index] += 1
      result.fetchByteTotals[index] += Int128(Int64(nearest: bytes))
      seconds += system.network.latencySeconds + bookTransfer(bytes: bytes, subject: index, at: now)
    }
    let entries = instances[index].timeline.entries
    let memory =
      Swift.max(0, buildSettings[index].memoryBytes.sample(stream)) + Double(entries - 1)
      * buildSettings[index].memoryPerEntryBytes
    if memory > system.memoryCeilingBytes { return .jetsam }
    if seconds > buildSettings[index].timeLimit.seconds { return .timeout }
    bookRender(entries: entries, subject: index, at: now)
    return .success
  }

  /// Replaces the pending policy reload with the new timeline's: its earliest date plus the system's delay.
  mutating func schedulePolicy(_ index: Int, _ scheduler: inout Scheduler) {
    if let event = instances[index].policyEvent { scheduler.cancel(event) }
    instances[index].policyEvent = nil
    guard let earliest = instances[index].timeline.earliestNextReload else { return }
    var delaySeconds = Swift.max(0, system.afterDelay.sample(instances[index].delayStream))
    if lowPowerModeOn { delaySeconds *= device.lowPowerMode.afterDelayFactor }
    let delay = SimDuration(seconds: delaySeconds)
    let time = scheduler.now + earliest + delay
    instances[index].policyTime = time
    instances[index].policyEvent = scheduler.schedule(
      at: time, kind: DeviceEventKind.policyReload.eventKind, target: UInt32(index))
  }

  mutating func markExhausted(_ index: Int, at now: SimTime) {
    let day = Int(now.microseconds / DeviceSimulation.day.microseconds)
    deviceExhausted[day * instances.count + index] = true
  }

  /// Counts one request by the hour it was made in.
  mutating func count(_ requestTime: SimTime, _ index: Int, _ cause: ReloadCause, _ outcome: ReloadOutcome) {
    let hourIndex = Swift.min(
      Int(requestTime.microseconds / DeviceSimulation.hour.microseconds), result.days * 24 - 1)
    result.reloadCounts[result.countIndex(hourIndex: hourIndex, instance: index, cause: cause, outcome: outcome)] += 1
    result.reloadTotals[
      (index * ReplicationResult.causeCount + cause.rawValue) * ReplicationResult.outcomeCount + outcome.rawValue] += 1
  }
}
