import Results
import SimulationEngine

/// Events to their owners: the device's one switch, and what each process of the table stands for.
extension DeviceSimulation {
  mutating func handle(_ event: Event, scheduler: inout Scheduler) {
    if event.time > processes.earliestDeferred { runDeferred(before: event.time, &scheduler) }
    tally.trajectory.add(event)
    dispatch(event, &scheduler)
    if processes.hasGates { refreshDeferralGates(&scheduler) }
  }

  private mutating func dispatch(_ event: Event, _ scheduler: inout Scheduler) {
    guard let kind = DeviceEvent(event.kind) else { preconditionFailure("unknown device event \(event.kind)") }
    switch kind {
    case .lifetime(.hourTick): hourTick(&scheduler)
    case .lifetime(.widgetsAdded): addedWidgets(&scheduler)
    case .user(.sleep): fellAsleep(&scheduler)
    case .user(.wake): woke(&scheduler)
    case .process: processFired(ProcessID(Int(event.target)), &scheduler)
    case .appSession(let owned): appSessionEnded(owned, &scheduler)
    case .appRequest(.reloadRequest):
      let (cause, targets) = DeviceSimulation.appReload(target: event.target)
      appReloadArrived(cause, targets, &scheduler)
    case .appRequest(.backgroundRefresh): backgroundRefreshDue(&scheduler)
    case .instance(let owned): instanceEvent(owned, InstanceID(Int(event.target)), &scheduler)
    case .display(let owned): displayEvent(owned, &scheduler)
    case .push(.widgetPushDelivery): widgetPushArrived(&scheduler)
    case .push(.silentPushDelivery): launchingPushArrived(Int(event.target), &scheduler)
    case .activity(let owned): activityEvent(owned, target: event.target, &scheduler)
    case .activityStart:
      scheduler.schedule(after: SimDuration.day, kind: ActivityStartEvent.scheduled.eventKind, target: event.target)
      startActivity(ActivityKindID(Int(event.target)), &scheduler)
    case .fleet(.happened): fleetEventHappened(Int(event.target), &scheduler)
    case .fleet(.push): sendEventPushes(Int(event.target), &scheduler)
    case .data(.scheduledChange): scheduledChangeStarted(kind: Int(event.target), &scheduler)
    case .data(.burstUpdate):
      let burst = bursts.updated(target: event.target)
      dataChanged(KindID(burst.kind), &scheduler)
      if let activity = burst.activity { activityEvent(.update, activity: activity, &scheduler) }
    }
    assert(!instances.contains { !$0.machine.isSettled }, "an instance was left awaiting a decision or a build")
  }

  /// The user falls asleep: StandBy comes on (the phone on its nightstand charger).
  private mutating func fellAsleep(_ scheduler: inout Scheduler) {
    user.handle(.sleep, &scheduler)
    processes.update(hour: scheduler.now.clockHour, asleep: user.asleep, &scheduler)
    standby.start(&scheduler)
  }

  /// The user wakes: StandBy goes off, and every instance waiting for budget asks again.
  private mutating func woke(_ scheduler: inout Scheduler) {
    user.handle(.wake, &scheduler)
    processes.update(hour: scheduler.now.clockHour, asleep: user.asleep, &scheduler)
    standby.stop(&scheduler)
    for index in instances.indices where instances[index].machine.isWaiting {
      retry(index, &scheduler)
    }
  }

  /// A widget instance's own events: its timeline policy fell due; a withheld request may be grantable now.
  private mutating func instanceEvent(_ event: InstanceEvent, _ instance: InstanceID, _ scheduler: inout Scheduler) {
    switch event {
    case .policyReload:
      instances[instance.index].policyEvent = nil
      raise(.policy, .instance(instance), &scheduler)
    case .retry:
      instances[instance.index].retryEvent = nil
      retry(instance.index, &scheduler)
    }
  }

  /// StandBy or CarPlay refreshes its widgets (exempt); a drive ends.
  private mutating func displayEvent(_ event: DisplayEvent, _ scheduler: inout Scheduler) {
    switch event {
    case .standbyRefresh:
      standby.refreshed(&scheduler)
      raise(.standby, .standbyInstances, &scheduler)
    case .carplayRefresh:
      carplay.refreshed(&scheduler)
      raise(.carplay, .carplayInstances, &scheduler)
    case .carplayEnd:
      driving = false
      carplay.stop(&scheduler)
    }
  }

  /// A kind's change on its own clock starts: the data changes, and a Live Activity the burst drives starts
  /// with it.
  private mutating func scheduledChangeStarted(kind: Int, _ scheduler: inout Scheduler) {
    let slot = bursts.started(kind, &scheduler)
    dataChanged(KindID(kind), &scheduler)
    if let activityKind = burstActivities[kind] {
      let before = activities.records.count
      startActivity(activityKind, &scheduler)
      if let slot, let started = activities.started(since: before) { bursts.attach(started, to: slot) }
    }
  }

  /// A Poisson process fired: hand what it stands for to the component it concerns.
  mutating func processFired(_ process: ProcessID, _ scheduler: inout Scheduler) {
    switch processes.fired(process, &scheduler) {
    case .homeScreenViews:
      homeScreenViewed(at: scheduler.now, &scheduler)
    case .lockScreenViews:
      lockScreenViewed(at: scheduler.now, &scheduler)
    case .controlCenterViews:
      for index in instances.indices where instances[index].placementRule.views == .controlCenter {
        view(index, &scheduler)
      }
    case .dynamicIslandViews:
      // The Dynamic Island shows the app's activity while the user is in another app.
      guard !power.isOff && !app.isForeground else { return }
      activities.dynamicIslandViewed(
        expandedShare: user.configuration.dynamicIslandExpandedShare, at: scheduler.now, &recorder)
    case .carplayDrives:
      guard !power.isOff && !driving && carplay.isUsed else { return }
      driving = true
      let length = SampleLimits.duration(user.configuration.carplayDrive.sample(carplayDriveStream))
      scheduler.schedule(after: SimDuration(seconds: length), kind: DisplayEvent.carplayEnd.eventKind)
      carplay.start(&scheduler)
    case .carplayViews:
      guard driving else { return }
      for instance in carplay.instances { view(instance.index, &scheduler) }
    case .tokenRotations(let kind):
      guard !power.isOff && activities.tokenRotated(kind) else { return }
      recorder.recordFetch(.tokenRegistration, bytes: 0, at: scheduler.now, offset: clockOffset)
    case .standbyViews:
      for instance in standby.instances { view(instance.index, &scheduler) }
    case .appOpens:
      appOpened(&scheduler)
    case .audioSessions:
      audioStarted(&scheduler)
    case .forceQuits:
      appForceQuit(&scheduler)
    case .environmentChanges:
      raise(.environmentChange, .everyInstance, &scheduler)
    case .reboots:
      raise(.reboot, .everyInstance, &scheduler)
    case .dataChanges(let kind):
      dataChanged(kind, &scheduler)
    case .taps(let instance):
      raise(.appIntent, .instance(instance), &scheduler)
    case .activityStarts(let kind):
      startActivity(kind, &scheduler)
    }
  }

  /// A Live Activity of kind `kind` starts: one the user starts in the app (`start: app`) brings the app
  /// to the foreground first; one the app requests on its own succeeds only if it is there already.
  mutating func startActivity(_ kind: ActivityKindID, _ scheduler: inout Scheduler) {
    guard !power.isOff else { return }
    if activities.kinds[kind.index].start == .app && !app.isForeground {
      appOpened(fromWidgetPossible: false, &scheduler)
    }
    activities.startActivity(kind, appInForeground: app.isForeground, &scheduler, &recorder)
  }

  /// The server's data of a widget kind changed: its instances and the app's store fall behind, the server
  /// may send a WidgetKit push and a silent push, and the app, if it runs now, learns of it (`appListens`
  /// false: only the idealised `always_running` app; one in the foreground or an audio session waits for
  /// its next fetch).
  mutating func dataChanged(
    _ kind: KindID, pushes: Bool = true, appListens: Bool = true, _ scheduler: inout Scheduler
  ) {
    timeline?.add(.dataChange(kind: kind.index), at: scheduler.now)
    // The source's fields are read in place: a copy would retain its rate table.
    for position in data.sources[kind.index].range {
      let index = data.members[position].index
      instances[index].machine.dataChanged(at: scheduler.now)
      timeline?.content(instances[index].id, instances[index].machine.display, at: scheduler.now)
    }
    app.dataChanged(kind: kind.index, at: scheduler.now)
    if pushes {
      sendPushes(kind, &scheduler)
    }
    appLearns(kind, listening: appListens, &scheduler)
  }

  /// The server's pushes for a change of `kind`, as the kind's data asks.
  mutating func sendPushes(_ kind: KindID, _ scheduler: inout Scheduler) {
    for push in data.sources[kind.index].pushes {
      send(push, &scheduler)
    }
  }

  /// The user sees instance `index`: record what it shows, and give a rarely visited page its catch-up.
  mutating func view(_ index: Int, _ scheduler: inout Scheduler) {
    view(index, at: scheduler.now, &scheduler)
  }

  /// A view at `now`: the scheduler's time, or a deferred view's (``ProcessDeferral``), which never raises.
  mutating func view(_ index: Int, at now: SimTime, _ scheduler: inout Scheduler) {
    guard !power.isOff && widgetsAdded && instances[index].installed else { return }
    instances[index].viewsThisHour += 1
    timeline?.add(
      .view(instances[index].id, instances[index].placement, staleness: instances[index].staleness(at: now)), at: now)
    let inBurst = bursts.isLive(instances[index].kind)
    if let staleness = instances[index].staleness(at: now) {
      let bucket = tally.staleness.bucket(of: staleness.seconds)
      recorder.recordStaleness(instance: index, staleness, bucket: bucket, inBurst: inBurst)
      tally.staleness.add(bucket)
    } else {
      // The placeholder counts in staleness at the age of the last good content: the stalest view there is.
      let age = instances[index].placeholderAge(at: now, added: .zero + installTime)
      let bucket = tally.staleness.bucket(of: age.seconds)
      recorder.recordPlaceholder(instance: index, age: age, bucket: bucket, inBurst: inBurst)
      tally.staleness.add(bucket)
    }
    if instances[index].placementRule.catchesUpWhenSeen && instances[index].machine.isWaiting {
      // A deferred view must not need to raise (its gate closes while a catch-up is due); a new raise here
      // needs a gate of its own (ProcessDeferral).
      precondition(now == scheduler.now, "a deferred view raised a catch-up")
      raise(.catchUp, .instance(instances[index].id), &scheduler)
    }
  }
}
