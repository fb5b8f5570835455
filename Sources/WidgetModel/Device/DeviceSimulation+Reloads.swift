import ResultStorage
import Results
import SimulationEngine

/// Raising reload triggers and performing what each instance's ``ReloadMachine`` asks for: WidgetKit's
/// decision on budget, interval and sleep; retries; builds and their costs; the policy's next reload.
extension DeviceSimulation {
  /// A trigger asks for reloads of `targets`. The trigger table says whether they spend budget, and (checked
  /// in debug builds) which targets the cause may name. `ignored`: WidgetKit ignores the requests (each
  /// counted as `ignored`).
  mutating func raise(
    _ cause: ReloadCause, _ targets: ReloadTargets, ignored: Bool = false, _ scheduler: inout Scheduler
  ) {
    assert(cause.trigger.reloads.contains(targets.scope), "\(cause.name) may not reload \(targets.scope.description)")
    switch targets {
    case .instance(let instance):
      raise(cause, for: instance.index, ignored: ignored, &scheduler)
    case .everyInstance:
      for index in instances.indices { raise(cause, for: index, ignored: ignored, &scheduler) }
    case .changedData(let kind):
      switch data.sources[kind.index].onChange {
      case .none: break
      case .reloadKind:
        for position in data.sources[kind.index].range {
          raise(cause, for: data.members[position].index, ignored: ignored, &scheduler)
        }
      case .reloadAll:
        for index in instances.indices { raise(cause, for: index, ignored: ignored, &scheduler) }
      }
    case .standbyInstances:
      for instance in standby.instances { raise(cause, for: instance.index, ignored: ignored, &scheduler) }
    case .carplayInstances:
      for instance in carplay.instances { raise(cause, for: instance.index, ignored: ignored, &scheduler) }
    case .pushHandlers:
      for index in instances.indices where instances[index].pushHandler {
        raise(cause, for: index, ignored: ignored, &scheduler)
      }
    case .kind(let kind):
      for position in data.sources[kind.index].range {
        raise(cause, for: data.members[position].index, ignored: ignored, &scheduler)
      }
    }
  }

  /// One instance's request: nothing happens on a switched-off phone, or for a widget this device does not
  /// have. A control spends budget only when `system.controls.budget` gives it one.
  private mutating func raise(_ cause: ReloadCause, for index: Int, ignored: Bool, _ scheduler: inout Scheduler) {
    guard !power.isOff && widgetsAdded && instances[index].installed else { return }
    let now = scheduler.now
    if ignored { return count(ReloadRequest(cause: cause, time: now), instances[index].id, .ignored, at: now) }
    let budgeted =
      isBudgeted(cause) && (instances[index].surface == .widget || system.controlBudgetPerDay != nil)
    perform(instances[index].machine.request(cause, budgeted: budgeted, at: now), index, &scheduler)
  }

  /// The instance's waiting request may be grantable now (its retry fell due, or the user woke).
  mutating func retry(_ index: Int, _ scheduler: inout Scheduler) {
    perform(instances[index].machine.retry(), index, &scheduler)
  }

  /// Carries out a machine's action, feeding decisions and build results back until it settles.
  mutating func perform(_ first: ReloadAction, _ index: Int, _ scheduler: inout Scheduler) {
    var action = first
    while true {
      switch action {
      case .none:
        return
      case .count(let request, let outcome):
        count(request, instances[index].id, outcome, at: scheduler.now)
        return
      case .decide:
        // The argument first: evaluated inside the write to `instances[index]`, it would hold the table
        // (a retain and release) across a call that changes the device.
        let blocker = blocker(index, at: scheduler.now)
        action = instances[index].machine.decide(blocker)
      case .wait(let budgetEmpty):
        if budgetEmpty { markExhausted(index, at: scheduler.now) }
        scheduleRetry(index, &scheduler)
        return
      case .build(let spend, let lastGrant, let superseded):
        cancelRetry(index, &scheduler)
        if let superseded { count(superseded, instances[index].id, .coalesced, at: scheduler.now) }
        if spend { spendBudget(index, lastGrant: lastGrant, at: scheduler.now) }
        let built = build(index, at: scheduler.now)
        let shown = instances[index].machine.display
        action = instances[index].machine.buildEnded(built)
        if let good = shown.lastCurrent(at: scheduler.now), instances[index].machine.display == .placeholder {
          instances[index].lastGoodContent = good
        }
        timeline?.content(instances[index].id, instances[index].machine.display, at: scheduler.now)
      case .stuck(let request, let superseded):
        cancelRetry(index, &scheduler)
        if let superseded { count(superseded, instances[index].id, .coalesced, at: scheduler.now) }
        count(request, instances[index].id, .stuck, at: scheduler.now)
        traceReload(request, index, .stuck, at: scheduler.now)
        return
      case .built(let request, let outcome, let budgeted):
        finishReload(index, request, outcome, budgeted: budgeted, &scheduler)
        return
      }
    }
  }

  /// What stops a budgeted reload of the instance now. An empty budget takes precedence.
  mutating func blocker(_ index: Int, at now: SimTime) -> GrantBlocker {
    if budgetSettings.debug { return .none }
    instances[index].budget.advance(to: now)
    if !instances[index].budget.hasBudget { return .budget }
    if system.deferWhileAsleep && user.asleep { return .deferred }
    if let last = instances[index].lastReload, now < last + budgetSettings.minInterval { return .deferred }
    return .none
  }

  /// Schedules the next attempt of the instance's waiting request at the earliest time it could succeed;
  /// with no such time (an allowance of zero) the next hour tick looks again.
  mutating func scheduleRetry(_ index: Int, _ scheduler: inout Scheduler) {
    let now = scheduler.now
    var time = instances[index].budget.nextAvailable(after: now)
    if let last = instances[index].lastReload { time = Swift.max(time, last + budgetSettings.minInterval) }
    if system.deferWhileAsleep && user.asleep { time = Swift.max(time, user.nextWake) }
    cancelRetry(index, &scheduler)
    guard time < ReloadBudget.never else { return }
    let at = Swift.max(time, now + .microseconds(1))
    instances[index].retryEvent = scheduler.schedule(
      at: at, kind: InstanceEvent.retry.eventKind, target: instances[index].id.eventTarget)
  }

  mutating func cancelRetry(_ index: Int, _ scheduler: inout Scheduler) {
    if let retry = instances[index].takeRetryEvent() { scheduler.cancel(retry) }
  }

  mutating func spendBudget(_ index: Int, lastGrant: Bool, at now: SimTime) {
    instances[index].budget.advance(to: now)
    instances[index].budget.spend(at: now)
    if lastGrant {
      tally.lastGrant[tally.byInstance.index(now.dayIndex, index)] = now.sinceMidnight.microseconds
    }
  }

  /// Draws what building the timeline costs and whether it survives: CPU time; a network fetch and its
  /// size; peak memory (`memory + (entries - 1) * memory_per_entry`). Killed above the memory ceiling
  /// (jetsam, after which the extension may stay stuck); cut off when CPU plus fetch time passes the time
  /// limit.
  mutating func build(_ index: Int, at now: SimTime) -> BuildResult {
    // The settings are read in place: a copy of the configuration would copy its distributions.
    let stream = instances[index].streams.build
    tally.builds[index].builds += 1
    let cpu = SampleLimits.duration(instances[index].buildDraws.cpuSeconds.sample(stream))
    tally.builds[index].cpuMicros += Int128(Int64(nearest: cpu * 1e6))
    processor.bookBuild(cpuSeconds: cpu, subject: index, at: now, appInForeground: app.isForeground, &recorder)
    var seconds = cpu
    // A build that fetches shows the server's latest data; one that does not, what the app last wrote.
    var shows = app.store[instances[index].kind.index]
    if stream.bernoulli(instances[index].build.fetchProbability) {
      shows = .current
      let bytes = SampleLimits.size(instances[index].buildDraws.fetchBytes.sample(stream))
      tally.builds[index].fetches += 1
      tally.builds[index].fetchBytes += Int128(Int64(nearest: bytes))
      recorder.recordFetch(.widgetFetch, bytes: bytes, at: now, offset: clockOffset)
      seconds += system.network.latencySeconds + transfer(bytes: bytes, subject: index, at: now)
    }
    let entries = instances[index].timeline.entries
    let memory =
      Swift.max(0, instances[index].buildDraws.memoryBytes.sample(stream)) + Double(entries - 1)
      * instances[index].build.memoryPerEntryBytes
    if memory > system.memoryCeilingBytes {
      let stuck = instances[index].streams.jetsamStuck?.bernoulli(system.jetsamStuckProbability) ?? false
      return .jetsam(stuck: stuck)
    }
    if seconds > instances[index].build.timeLimit.seconds { return .timeout }
    processor.power.bookRender(entries: entries, subject: index, at: now, &recorder)
    return .success(shows)
  }

  /// A build ended: count it, schedule the policy's next reload (after a failed build WidgetKit tries again
  /// on the old timeline's schedule), and let a budgeted reload pull other instances' due policy reloads
  /// forward (`system.coalesce_window`).
  mutating func finishReload(
    _ index: Int, _ request: ReloadRequest, _ outcome: ReloadOutcome, budgeted: Bool, _ scheduler: inout Scheduler
  ) {
    let now = scheduler.now
    count(request, instances[index].id, outcome, at: now)
    if outcome.isReload { tally.reloads += 1 }
    traceReload(request, index, outcome, at: now)
    if fieldLog != nil && outcome.isReload { logTimeline(index, at: now) }
    instances[index].lastReload = now
    schedulePolicy(index, &scheduler)
    guard budgeted && system.coalesceWindow > .zero else { return }
    let horizon = now + system.coalesceWindow
    for other in instances.indices where other != index {
      if let event = instances[other].policyEvent, instances[other].policyTime <= horizon {
        instances[other].policyEvent = scheduler.supersede(
          event, at: now, kind: InstanceEvent.policyReload.eventKind, target: instances[other].id.eventTarget)
        instances[other].policyTime = now
      }
    }
  }

  /// Adds a request that ended (built, or failed as `stuck` without building) to the trace, when traced.
  mutating func traceReload(_ request: ReloadRequest, _ index: Int, _ outcome: ReloadOutcome, at now: SimTime) {
    timeline?.add(.reload(instances[index].id, request.cause, outcome), at: now)
    guard trace != nil else { return }
    trace?.append(
      ReloadRecord(
        time: now, requestTime: request.time, instance: instances[index].id, cause: request.cause, outcome: outcome))
  }

  /// Replaces the pending policy reload with the new timeline's: the date it asks for plus the system's delay
  /// (longer in Low Power Mode).
  mutating func schedulePolicy(_ index: Int, _ scheduler: inout Scheduler) {
    if let event = instances[index].policyEvent { scheduler.cancel(event) }
    instances[index].policyEvent = nil
    var systemChosen = SimDuration.zero
    if let stream = instances[index].streams.systemChosenDelay {
      systemChosen = SimDuration(seconds: Swift.max(0, system.atEndSingleEntryDelay.sample(stream)))
    }
    guard
      let date = instances[index].timeline.nextReloadDate(after: scheduler.now, systemChosenDelay: systemChosen)
    else { return }
    var delaySeconds = Swift.max(0, system.afterDelay.sample(instances[index].streams.afterDelay))
    if power.isLowPowerMode { delaySeconds *= power.device.lowPowerMode.afterDelayFactor }
    let time = date + SimDuration(seconds: delaySeconds)
    instances[index].policyTime = time
    instances[index].policyEvent = scheduler.schedule(
      at: time, kind: InstanceEvent.policyReload.eventKind, target: instances[index].id.eventTarget)
  }

  mutating func markExhausted(_ index: Int, at now: SimTime) {
    tally.exhausted[tally.byInstance.index(now.dayIndex, index)] = true
  }

  /// Counts one request, by the hour it was made in, with the outcome it met by `now`.
  mutating func count(_ request: ReloadRequest, _ instance: InstanceID, _ outcome: ReloadOutcome, at now: SimTime) {
    timeline?.add(.reloadRequest(instance, request.cause, outcome), at: request.time, lasting: now - request.time)
    recorder.countReload(
      hourIndex: Swift.min(request.time.hourIndex, recorder.days * 24 - 1), instance: instance, cause: request.cause,
      outcome: outcome)
  }
}
