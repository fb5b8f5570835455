import SimulationEngine

/// What a running Live Activity needs besides its record: its pending events and content state.
struct ActivityRuntime {
  var updateEvent: EventHandle?
  var endEvent: EventHandle?
  var systemEndEvent: EventHandle?
  /// A priority-5 update sent and not yet delivered (one per activity: its push token is its topic).
  var pendingUpdate: PendingPush?
  /// The first update the displayed content does not reflect; nil when current.
  var firstUndelivered: SimTime?
  var active = false
  /// The server has sent (or is retrying) the final push: no more updates.
  var ending = false
}

/// The random streams of one Live Activity kind.
struct ActivityStreams {
  let updates: RandomStream
  let lifetime: RandomStream
  let render: RandomStream
}

/// Live Activities: starts under the concurrency cap and the push-to-start budget; updates by priority-10
/// pushes (hourly budget, throttled past it) or priority-5 pushes (free, delayed, one pending per
/// activity); ends by the app, a final push or the system at 8 h; up to 4 h more on the Lock Screen.
extension DeviceSimulation {
  mutating func startActivity(definition index: Int, _ scheduler: inout Scheduler) {
    let now = scheduler.now
    let settings = liveActivities[index]
    activityAttempts[index] += 1
    var record = ActivityRecord(definition: index, label: "\(settings.id)#\(activityAttempts[index])", startTime: now)
    if settings.start == .pushToStart {
      countPush(hour: hourIndex(now), target: 1 + index, priority: 10, .sent)
      if pushToStart.take(at: now) {
        countPush(hour: hourIndex(now), target: 1 + index, priority: 10, .delivered)
        bookPushWake(subject: result.activitySubject(index), at: now)
      } else {
        countPush(hour: hourIndex(now), target: 1 + index, priority: 10, .throttled)
        record.rejection = "push_budget"
      }
    }
    if record.rejection == nil && activeActivities >= system.liveActivities.maxConcurrent {
      record.rejection = "cap"
    }
    if let rejection = record.rejection {
      record.endedBy = "rejected_\(rejection)"
      activityRecords.append(record)
      activityRuntime.append(ActivityRuntime())
      return
    }
    let activity = activityRecords.count
    activityRecords.append(record)
    var runtime = ActivityRuntime()
    runtime.active = true
    activeActivities += 1
    onLockScreen.append(activity)
    let streams = activityStreams[index]
    let interval = SimDuration(seconds: Swift.max(1, settings.updateInterval.sample(streams.updates)))
    runtime.updateEvent = scheduler.schedule(
      after: interval, kind: DeviceEventKind.activityUpdate.eventKind, target: UInt32(activity))
    let duration = SimDuration(seconds: Swift.max(0, settings.duration.sample(streams.lifetime)))
    if duration < system.liveActivities.maximumActive {
      runtime.endEvent = scheduler.schedule(
        after: duration, kind: DeviceEventKind.activityEnd.eventKind, target: UInt32(activity))
    }
    runtime.systemEndEvent = scheduler.schedule(
      after: system.liveActivities.maximumActive, kind: DeviceEventKind.activitySystemEnd.eventKind,
      target: UInt32(activity))
    activityRuntime.append(runtime)
  }

  /// The server sends the activity's next update, and schedules the one after.
  mutating func sendActivityUpdate(_ activity: Int, _ scheduler: inout Scheduler) {
    guard activityRuntime[activity].active && !activityRuntime[activity].ending else { return }
    let now = scheduler.now
    let index = activityRecords[activity].definition
    let settings = liveActivities[index]
    activityRecords[activity].updatesSent += 1
    if activityRuntime[activity].firstUndelivered == nil { activityRuntime[activity].firstUndelivered = now }
    let interval = SimDuration(seconds: Swift.max(1, settings.updateInterval.sample(activityStreams[index].updates)))
    activityRuntime[activity].updateEvent = scheduler.schedule(
      after: interval, kind: DeviceEventKind.activityUpdate.eventKind, target: UInt32(activity))
    let hour = hourIndex(now)
    countPush(hour: hour, target: 1 + index, priority: settings.priority, .sent)
    result.serverLoad.recordPush(delivered: false, at: now, offset: clockOffset)
    if settings.priority == 10 {
      if admitPriorityTen(settings, at: now) {
        countPush(hour: hour, target: 1 + index, priority: 10, .delivered)
        render(activity, definition: index, at: now)
      } else {
        countPush(hour: hour, target: 1 + index, priority: 10, .throttled)
        activityRecords[activity].updatesThrottled += 1
      }
      return
    }
    if let pending = activityRuntime[activity].pendingUpdate {
      scheduler.cancel(pending.delivery)
      countPush(hour: pending.sendHour, target: 1 + index, priority: 5, .superseded)
      activityRecords[activity].updatesSuperseded += 1
    }
    let delay = SimDuration(
      seconds: Swift.max(0, system.liveActivities.lowPriorityDelay.sample(activityStreams[index].updates)))
    let delivery = scheduler.schedule(
      after: delay, kind: DeviceEventKind.activityDelivery.eventKind, target: UInt32(activity))
    activityRuntime[activity].pendingUpdate = PendingPush(sendHour: hour, delivery: delivery)
  }

  /// A delayed priority-5 update arrives (free: no budget).
  mutating func deliverActivityUpdate(_ activity: Int, at now: SimTime) {
    guard let pending = activityRuntime[activity].pendingUpdate else { return }
    activityRuntime[activity].pendingUpdate = nil
    let index = activityRecords[activity].definition
    countPush(hour: pending.sendHour, target: 1 + index, priority: 5, .delivered)
    render(activity, definition: index, at: now)
  }

  /// Whether a priority-10 push fits the app's hourly budget now (and records it if so).
  mutating func admitPriorityTen(_ settings: LiveActivityConfiguration, at now: SimTime) -> Bool {
    let frequent = settings.frequentUpdates && settings.frequentUpdatesAllowed
    let budget = frequent ? system.liveActivities.frequentBudgetPerHour : system.liveActivities.budgetPerHour
    guard Double(priorityTenLastHour.count(at: now)) < budget else { return false }
    priorityTenLastHour.record(now)
    return true
  }

  /// A delivered update is rendered; above the memory ceiling the render is killed and the old content stays.
  mutating func render(_ activity: Int, definition index: Int, at now: SimTime) {
    activityRecords[activity].updatesDelivered += 1
    result.serverLoad.recordPush(delivered: true, at: now, offset: clockOffset)
    guard !poweredOff else { return }
    bookPushWake(subject: result.activitySubject(index), at: now)
    let memory = Swift.max(0, liveActivities[index].memoryBytes.sample(activityStreams[index].render))
    if memory > system.liveActivities.memoryCeilingBytes {
      activityRecords[activity].updatesJetsam += 1
    } else {
      activityRuntime[activity].firstUndelivered = nil
      bookRender(entries: 1, subject: result.activitySubject(index), at: now)
    }
  }

  /// The app's end (or final push) is due. With `end: push` the server stops updating and sends the final
  /// push; a throttled final push is retried one update interval later (the activity meanwhile stays up
  /// with its last content, until the system ends it at the latest).
  mutating func activityEndDue(_ activity: Int, _ scheduler: inout Scheduler) {
    guard activityRuntime[activity].active else { return }
    activityRuntime[activity].endEvent = nil
    let index = activityRecords[activity].definition
    let settings = liveActivities[index]
    switch settings.end {
    case .app:
      endActivity(activity, by: "app", &scheduler)
    case .push:
      let now = scheduler.now
      let hour = hourIndex(now)
      activityRuntime[activity].ending = true
      if let update = activityRuntime[activity].updateEvent { scheduler.cancel(update) }
      activityRuntime[activity].updateEvent = nil
      countPush(hour: hour, target: 1 + index, priority: 10, .sent)
      if admitPriorityTen(settings, at: now) {
        countPush(hour: hour, target: 1 + index, priority: 10, .delivered)
        endActivity(activity, by: "push", &scheduler)
      } else {
        countPush(hour: hour, target: 1 + index, priority: 10, .throttled)
        let retry = SimDuration(seconds: Swift.max(1, settings.updateInterval.sample(activityStreams[index].updates)))
        activityRuntime[activity].endEvent = scheduler.schedule(
          after: retry, kind: DeviceEventKind.activityEnd.eventKind, target: UInt32(activity))
      }
    }
  }

  mutating func endActivity(_ activity: Int, by reason: String, _ scheduler: inout Scheduler) {
    guard activityRuntime[activity].active else { return }
    let now = scheduler.now
    activityRuntime[activity].active = false
    activeActivities -= 1
    activityRecords[activity].endedBy = reason
    activityRecords[activity].endTime = now
    for event in [
      activityRuntime[activity].updateEvent, activityRuntime[activity].endEvent,
      activityRuntime[activity].systemEndEvent,
    ] {
      if let event { scheduler.cancel(event) }
    }
    activityRuntime[activity].updateEvent = nil
    activityRuntime[activity].endEvent = nil
    activityRuntime[activity].systemEndEvent = nil
    let index = activityRecords[activity].definition
    if let pending = activityRuntime[activity].pendingUpdate {
      scheduler.cancel(pending.delivery)
      countPush(hour: pending.sendHour, target: 1 + index, priority: 5, .superseded)
      activityRecords[activity].updatesSuperseded += 1
      activityRuntime[activity].pendingUpdate = nil
    }
    let most = system.liveActivities.maximumLockScreen
    let stay: SimDuration
    switch liveActivities[index].dismissal {
    case .immediate: stay = .zero
    case .systemDefault: stay = most
    case .after(let duration): stay = Swift.min(duration, most)
    }
    if stay == .zero {
      dismissActivity(activity, at: now)
    } else {
      scheduler.schedule(after: stay, kind: DeviceEventKind.activityDismiss.eventKind, target: UInt32(activity))
    }
  }

  mutating func dismissActivity(_ activity: Int, at now: SimTime) {
    activityRecords[activity].dismissTime = now
    if let position = onLockScreen.firstIndex(of: activity) { onLockScreen.remove(at: position) }
  }

  /// A Lock Screen view sees every activity on the Lock Screen: record how current it is.
  mutating func viewActivities(at now: SimTime) {
    for activity in onLockScreen {
      let index = activityRecords[activity].definition
      if let since = activityRuntime[activity].firstUndelivered {
        result.activityStaleness[index].record(staleness: now - since)
      } else {
        result.activityStaleness[index].record(staleness: .zero)
      }
    }
  }
}
