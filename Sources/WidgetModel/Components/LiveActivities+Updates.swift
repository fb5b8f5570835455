import Results
import SimulationEngine

/// Updates and the final push: priority 10 under the hourly budget, priority 5 free but delayed.
extension LiveActivities {
  /// The server sends the activity's next update, and schedules the one after.
  mutating func sendUpdate(
    _ activity: ActivityID, poweredOff: Bool, _ timers: inout some ActivityTimers & ~Copyable,
    _ result: inout some ActivityRecording
  ) {
    guard runtime[activity.index].phase == .active else { return }
    let now = timers.now
    let kind = records[activity.index].kind
    // The kind's settings are read in place: a copy would retain its strings and distributions.
    let interval = SimDuration(
      seconds: Swift.max(1, kinds[kind.index].updateInterval.sample(streams[kind.index].updates)))
    runtime[activity.index].updateEvent = timers.schedule(.update, for: activity.eventTarget, at: timers.now + interval)
    result.recordActivityPush(delivered: false, at: now, offset: clockOffset)
    push(activity, poweredOff: poweredOff, &timers, &result)
  }

  /// A fleet-wide event updates every running activity of `kind`: the server sends each its own push.
  mutating func eventUpdate(
    _ kind: ActivityKindID, poweredOff: Bool, _ timers: inout some ActivityTimers & ~Copyable,
    _ result: inout some ActivityRecording
  ) {
    var position = 0
    while position < onLockScreen.count {
      let activity = onLockScreen[position]
      position += 1
      guard runtime[activity.index].phase == .active && records[activity.index].kind == kind else { continue }
      result.recordActivityPush(delivered: false, at: timers.now, offset: clockOffset)
      push(activity, poweredOff: poweredOff, &timers, &result)
    }
  }

  /// Whether an activity of `kind` is running (active) now.
  func isRunning(_ kind: ActivityKindID) -> Bool {
    for activity in onLockScreen where records[activity.index].kind == kind && runtime[activity.index].phase == .active
    {
      return true
    }
    return false
  }

  /// The activity a start made when the records held `count` before it, if that start succeeded.
  func started(since count: Int) -> ActivityID? {
    guard records.count == count + 1, runtime[count].phase == .active else { return nil }
    return ActivityID(count)
  }

  /// The server sends `activity` an update of its own data (an order's next step), if it still runs.
  mutating func update(
    _ activity: ActivityID, poweredOff: Bool, _ timers: inout some ActivityTimers & ~Copyable,
    _ result: inout some ActivityRecording
  ) {
    guard runtime[activity.index].phase == .active else { return }
    result.recordActivityPush(delivered: false, at: timers.now, offset: clockOffset)
    push(activity, poweredOff: poweredOff, &timers, &result)
  }

  /// An update for `activity` leaves APNs now (its own push, or its channel's broadcast; `stored`: a
  /// channel's stored message, already counted as sent): priority 10 is delivered at once under the hourly
  /// budget, priority 5 later (one pending per activity).
  mutating func push(
    _ activity: ActivityID, poweredOff: Bool, stored: SimTime? = nil, _ timers: inout some ActivityTimers & ~Copyable,
    _ result: inout some ActivityRecording
  ) {
    let now = timers.now
    let sentAt = stored ?? now
    let kind = records[activity.index].kind
    let priority = kinds[kind.index].priority
    let target = PushTarget.activity(kind)
    let hour = now.hourIndex
    if stored == nil {
      records[activity.index].updatesSent += 1
      if runtime[activity.index].firstUndelivered == nil { runtime[activity.index].firstUndelivered = now }
      result.countPush(hourIndex: hour, target: target, priority: priority, .sent)
    }
    if priority == 10 {
      if admitPriorityTen(kind, at: now) {
        result.countPush(hourIndex: hour, target: target, priority: 10, .delivered)
        render(activity, poweredOff: poweredOff, sentAt: sentAt, at: now, &result)
      } else {
        result.countPush(hourIndex: hour, target: target, priority: 10, .throttled)
        records[activity.index].updatesThrottled += 1
      }
      return
    }
    if let pending = runtime[activity.index].pendingUpdate {
      timers.cancel(pending.delivery)
      result.countPush(hourIndex: pending.sendHour, target: target, priority: 5, .superseded)
      records[activity.index].updatesSuperseded += 1
    }
    let delay = SimDuration(seconds: Swift.max(0, system.lowPriorityDelay.sample(streams[kind.index].updates)))
    let delivery = timers.schedule(.delivery, for: activity.eventTarget, at: timers.now + delay)
    runtime[activity.index].pendingUpdate = PendingPush(sendHour: hour, sendTime: sentAt, delivery: delivery)
  }

  /// A delayed priority-5 update arrives (free: no budget).
  mutating func deliverUpdate(
    _ activity: ActivityID, poweredOff: Bool, at now: SimTime, _ result: inout some ActivityRecording
  ) {
    guard let pending = runtime[activity.index].pendingUpdate else { return }
    runtime[activity.index].pendingUpdate = nil
    let kind = records[activity.index].kind
    result.countPush(hourIndex: pending.sendHour, target: .activity(kind), priority: 5, .delivered)
    render(activity, poweredOff: poweredOff, sentAt: pending.sendTime, at: now, &result)
  }

  /// Whether a priority-10 push for an activity of `kind` fits the app's hourly budget now (and records it
  /// if so).
  mutating func admitPriorityTen(_ kind: ActivityKindID, at now: SimTime) -> Bool {
    let frequent = kinds[kind.index].frequentUpdates && kinds[kind.index].frequentUpdatesAllowed
    let budget = frequent ? system.frequentBudgetPerHour : system.budgetPerHour
    guard Double(priorityTenLastHour.count(at: now)) < budget else { return false }
    priorityTenLastHour.record(now)
    return true
  }

  /// A delivered update (or the final push, which carries the final content) is rendered; above the memory
  /// ceiling the render is killed and the old content stays. Its stale date counts from `sentAt`, when the
  /// server set it.
  mutating func render(
    _ activity: ActivityID, poweredOff: Bool, sentAt: SimTime, at now: SimTime, _ result: inout some ActivityRecording
  ) {
    records[activity.index].updatesDelivered += 1
    result.recordActivityPush(delivered: true, at: now, offset: clockOffset)
    guard !poweredOff else { return }
    let kind = records[activity.index].kind
    renderedUpdates += 1
    lastRenderedKind = kind.index
    let subject = result.activitySubject(kind.index)
    power.bookPushWake(subject: subject, at: now, &result)
    let memory = Swift.max(0, kinds[kind.index].memoryBytes.sample(streams[kind.index].render))
    if memory > system.memoryCeilingBytes {
      records[activity.index].updatesJetsam += 1
    } else {
      runtime[activity.index].firstUndelivered = nil
      runtime[activity.index].contentTime = sentAt
      power.bookRender(entries: 1, subject: subject, at: now, &result)
    }
  }

  /// The app's end (or final push) is due. With `end: push` the server stops updating and sends the final
  /// push; a throttled final push is retried one update interval later (the activity meanwhile stays up
  /// with its last content, until the system ends it at the latest). The final push carries the final
  /// content, so it counts as the activity's last update (sent, throttled or delivered) and a delivered one
  /// is rendered like an update before the activity ends.
  mutating func endDue(
    _ activity: ActivityID, poweredOff: Bool, _ timers: inout some ActivityTimers & ~Copyable,
    _ result: inout some ActivityRecording
  ) {
    guard runtime[activity.index].isRunning else { return }
    runtime[activity.index].endEvent = nil
    let kind = records[activity.index].kind
    switch kinds[kind.index].end {
    case .app:
      end(activity, by: .app, &timers, &result)
    case .push:
      let now = timers.now
      let hour = now.hourIndex
      let target = PushTarget.activity(kind)
      runtime[activity.index].phase = .ending
      if let update = runtime[activity.index].updateEvent { timers.cancel(update) }
      runtime[activity.index].updateEvent = nil
      records[activity.index].updatesSent += 1
      if runtime[activity.index].firstUndelivered == nil { runtime[activity.index].firstUndelivered = now }
      result.countPush(hourIndex: hour, target: target, priority: 10, .sent)
      result.recordActivityPush(delivered: false, at: now, offset: clockOffset)
      if admitPriorityTen(kind, at: now) {
        result.countPush(hourIndex: hour, target: target, priority: 10, .delivered)
        render(activity, poweredOff: poweredOff, sentAt: now, at: now, &result)
        end(activity, by: .push, &timers, &result)
      } else {
        result.countPush(hourIndex: hour, target: target, priority: 10, .throttled)
        records[activity.index].updatesThrottled += 1
        let retry = SimDuration(
          seconds: Swift.max(1, kinds[kind.index].updateInterval.sample(streams[kind.index].updates)))
        runtime[activity.index].endEvent = timers.schedule(.end, for: activity.eventTarget, at: timers.now + retry)
      }
    }
  }
}
