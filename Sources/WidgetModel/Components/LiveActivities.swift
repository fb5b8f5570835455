import Results
import SimulationEngine

/// Where one Live Activity is in its life.
enum ActivityPhase: Equatable {
  /// Its start was refused (concurrency cap, push-to-start budget): it never ran.
  case refused
  /// Running and updated by the server.
  case active
  /// Running; the server has stopped updating and sends (or retries) the final push.
  case ending
  /// Ended by the app, its final push or the system; maybe still on the Lock Screen.
  case ended
}

/// What a Live Activity needs besides its record: its phase, pending events and content state.
struct ActivityRuntime {
  var phase: ActivityPhase
  var updateEvent: EventHandle?
  var endEvent: EventHandle?
  var systemEndEvent: EventHandle?
  /// A priority-5 update sent and not yet delivered (one per activity: its push token is its topic).
  var pendingUpdate: PendingPush?
  /// The first update the displayed content does not reflect; nil when current.
  var firstUndelivered: SimTime?
  /// When the displayed content was set (the start, or the last rendered update): its `staleDate` is this
  /// plus the kind's `stale_after`.
  var contentTime: SimTime

  init(phase: ActivityPhase, contentTime: SimTime = .zero) {
    self.phase = phase
    self.contentTime = contentTime
  }

  var isRunning: Bool { phase == .active || phase == .ending }
}

/// The random streams of one Live Activity kind.
struct ActivityStreams {
  let updates: RandomStream
  let lifetime: RandomStream
  let render: RandomStream
  /// Only for a kind whose push tokens rotate.
  var tokens: RandomStream? = nil
}

/// The app's Live Activities on this device: starts under the concurrency cap and the push-to-start budget;
/// updates by priority-10 pushes (hourly budget, throttled past it) or priority-5 pushes (free, delayed, one
/// pending per activity); ends by the app, a final push or the system at 8 h; up to 4 h more on the Lock
/// Screen [D]. Owns the `activity*` events.
struct LiveActivities {
  let kinds: [LiveActivityConfiguration]
  let system: LiveActivitySystemConfiguration
  let power: DevicePowerConfiguration
  let clockOffset: SimDuration
  let streams: [ActivityStreams]
  /// Every start attempt on this device, in order, and its runtime state (parallel arrays, by ActivityID).
  var records: [ActivityRecord] = []
  var runtime: [ActivityRuntime] = []
  /// Updates that reached a switched-on phone, and the kind of the last one (for the app's field log).
  var renderedUpdates = 0
  var lastRenderedKind = 0
  private var attempts: [Int]
  private var running = 0
  /// Running activities per kind.
  private(set) var runningByKind: [Int]
  /// Activities on the Lock Screen (running, or ended and not yet dismissed).
  private(set) var onLockScreen: [ActivityID] = []
  private var pushToStart: TokenBucket
  var priorityTenLastHour = SlidingWindowCounter(length: .hours(1))
  /// The broadcast channels' updates as this device receives them.
  var channels: BroadcastReception
  /// Picks compact or expanded at Dynamic Island views.
  let dynamicIsland: RandomStream
  /// How long after a push-to-start's fixed time the server sends this phone's: its place in the fan-out to
  /// every phone at `server.push_rate`.
  let pushToStartLag: SimDuration

  init(
    kinds: [LiveActivityConfiguration], system: LiveActivitySystemConfiguration, power: DevicePowerConfiguration,
    clockOffset: SimDuration, streams: [ActivityStreams], channels: BroadcastReception, dynamicIsland: RandomStream,
    pushToStartLag: SimDuration = .zero
  ) {
    self.pushToStartLag = pushToStartLag
    self.kinds = kinds
    self.system = system
    self.power = power
    self.clockOffset = clockOffset
    self.streams = streams
    self.channels = channels
    self.dynamicIsland = dynamicIsland
    attempts = Array(repeating: 0, count: kinds.count)
    runningByKind = Array(repeating: 0, count: kinds.count)
    pushToStart = TokenBucket(capacity: system.pushToStartBudget, perHour: system.pushToStartRefillPerHour)
  }

  /// Schedules each kind's fixed daily starts.
  func start(_ timers: inout some ActivityTimers & ~Copyable) {
    for (index, activity) in kinds.enumerated() {
      let lag = activity.start == .pushToStart ? pushToStartLag : .zero
      for time in activity.startsAt {
        timers.scheduleStart(ActivityKindID(index), at: .zero + time.sinceMidnight + lag)
      }
    }
  }

  /// The activities' events (the target names an activity, or a channel for a broadcast update).
  mutating func handle(
    _ event: ActivityEvent, target: UInt32, poweredOff: Bool, _ timers: inout some ActivityTimers & ~Copyable,
    _ result: inout some ActivityRecording
  ) {
    let activity = ActivityID(Int(target))
    switch event {
    case .update: sendUpdate(activity, poweredOff: poweredOff, &timers, &result)
    case .delivery: deliverUpdate(activity, poweredOff: poweredOff, at: timers.now, &result)
    case .end: endDue(activity, poweredOff: poweredOff, &timers, &result)
    case .systemEnd: end(activity, by: .system, &timers, &result)
    case .dismiss: dismiss(activity, at: timers.now)
    case .broadcastUpdate: broadcast(channel: Int(target), poweredOff: poweredOff, &timers, &result)
    }
  }

  /// An activity of kind `kind` starts: by the app (`appInForeground`: whether `Activity.request` is
  /// allowed now [D]) or by a push-to-start. A push-to-start push is server load like any other, and wakes
  /// the device when delivered. Over a concurrency cap the kind's `on_cap` policy rejects the start or
  /// ends the app's oldest activity to make room.
  mutating func startActivity(
    _ kind: ActivityKindID, appInForeground: Bool, _ timers: inout some ActivityTimers & ~Copyable,
    _ result: inout some ActivityRecording
  ) {
    let now = timers.now
    let settings = kinds[kind.index]
    attempts[kind.index] += 1
    var record = ActivityRecord(kind: kind, label: "\(settings.id)#\(attempts[kind.index])", startTime: now)
    if settings.start == .pushToStart {
      let target = PushTarget.activity(kind)
      result.countPush(hourIndex: now.hourIndex, target: target, priority: 10, .sent)
      result.recordActivityPush(delivered: false, at: now, offset: clockOffset)
      if pushToStart.take(at: now) {
        result.countPush(hourIndex: now.hourIndex, target: target, priority: 10, .delivered)
        result.recordActivityPush(delivered: true, at: now, offset: clockOffset)
        power.bookPushWake(subject: result.activitySubject(kind.index), at: now, &result)
      } else {
        result.countPush(hourIndex: now.hourIndex, target: target, priority: 10, .throttled)
        record.rejection = .pushBudget
      }
    } else if !appInForeground {
      record.rejection = .visibility
    }
    if record.rejection == nil { record.rejection = makeRoom(for: settings, &timers, &result) }
    if let rejection = record.rejection {
      record.ending = rejection.ending
      records.append(record)
      runtime.append(ActivityRuntime(phase: .refused))
      return
    }
    let activity = ActivityID(records.count)
    records.append(record)
    var state = ActivityRuntime(phase: .active, contentTime: now)
    running += 1
    runningByKind[kind.index] += 1
    onLockScreen.append(activity)
    if let channel = settings.broadcastChannel {
      if let next = channels.subscribe(channel, now: timers.now) {
        scheduleBroadcast(channel, at: next, &timers)
      }
    } else if settings.ownUpdates {
      let interval = SimDuration(seconds: Swift.max(1, settings.updateInterval.sample(streams[kind.index].updates)))
      state.updateEvent = timers.schedule(.update, for: activity.eventTarget, at: timers.now + interval)
    }
    let duration = SimDuration(seconds: Swift.max(0, settings.duration.sample(streams[kind.index].lifetime)))
    if duration < system.maximumActive {
      state.endEvent = timers.schedule(.end, for: activity.eventTarget, at: timers.now + duration)
    }
    state.systemEndEvent = timers.schedule(.systemEnd, for: activity.eventTarget, at: timers.now + system.maximumActive)
    runtime.append(state)
  }

  /// Most activities that may run at once on this device.
  var concurrencySlots: Int { Swift.max(1, Swift.min(system.maxConcurrent, system.maxConcurrentDevice)) }

  /// The kind's rotation process fired at `concurrencySlots` times the per-activity rate: it is one of the
  /// running activities' rotations with probability running / slots (thinning), so each running activity
  /// rotates its token at `token_rotations` a day.
  func tokenRotated(_ kind: ActivityKindID) -> Bool {
    let running = runningByKind[kind.index]
    guard running > 0, let stream = streams[kind.index].tokens else { return false }
    return stream.uniform() * Double(concurrencySlots) < Double(running)
  }

  /// Whether a start fits under the caps (the app's, then the device's): nil if it does, perhaps after
  /// ending the app's oldest running activity (`on_cap: end_oldest`); else why it is refused.
  private mutating func makeRoom(
    for settings: LiveActivityConfiguration, _ timers: inout some ActivityTimers & ~Copyable,
    _ result: inout some ActivityRecording
  ) -> ActivityRejection? {
    let full: ActivityRejection? =
      running >= system.maxConcurrent ? .cap : running >= system.maxConcurrentDevice ? .deviceCap : nil
    guard let full else { return nil }
    // The oldest running activity: the Lock Screen list is in start order and holds every running one.
    var oldest: ActivityID?
    for activity in onLockScreen where runtime[activity.index].isRunning {
      oldest = activity
      break
    }
    guard settings.onCap == .endOldest, let oldest else { return full }
    end(oldest, by: .replaced, &timers, &result)
    return running >= Swift.min(system.maxConcurrent, system.maxConcurrentDevice) ? full : nil
  }

  /// The activity ends (by the app, its final push or the system): its events are cancelled, an undelivered
  /// update is dropped, and it stays on the Lock Screen as its dismissal policy says.
  mutating func end(
    _ activity: ActivityID, by ending: ActivityEnding, _ timers: inout some ActivityTimers & ~Copyable,
    _ result: inout some ActivityRecording
  ) {
    guard runtime[activity.index].isRunning else { return }
    let now = timers.now
    runtime[activity.index].phase = .ended
    running -= 1
    let kind = records[activity.index].kind
    runningByKind[kind.index] -= 1
    if let channel = kinds[kind.index].broadcastChannel {
      // A channel's stored message that would have reached it is discarded with it.
      if let stored = channels.missedAt[channel] {
        records[activity.index].updatesSuperseded += 1
        result.countPush(
          hourIndex: stored.hourIndex, target: .activity(kind), priority: kinds[kind.index].priority, .superseded)
      }
      channels.unsubscribe(channel)
    }
    records[activity.index].ending = ending
    records[activity.index].endTime = now
    for event in [
      runtime[activity.index].updateEvent, runtime[activity.index].endEvent, runtime[activity.index].systemEndEvent,
    ] {
      if let event { timers.cancel(event) }
    }
    runtime[activity.index].updateEvent = nil
    runtime[activity.index].endEvent = nil
    runtime[activity.index].systemEndEvent = nil
    if let pending = runtime[activity.index].pendingUpdate {
      timers.cancel(pending.delivery)
      result.countPush(hourIndex: pending.sendHour, target: .activity(kind), priority: 5, .superseded)
      records[activity.index].updatesSuperseded += 1
      runtime[activity.index].pendingUpdate = nil
    }
    let most = system.maximumLockScreen
    let stay: SimDuration
    switch kinds[kind.index].dismissal {
    case .immediate: stay = .zero
    case .systemDefault: stay = most
    case .after(let duration): stay = Swift.min(duration, most)
    }
    if stay == .zero {
      dismiss(activity, at: now)
    } else {
      timers.schedule(.dismiss, for: activity.eventTarget, at: timers.now + stay)
    }
  }

  mutating func dismiss(_ activity: ActivityID, at now: SimTime) {
    records[activity.index].dismissTime = now
    if let position = onLockScreen.firstIndex(of: activity) { onLockScreen.remove(at: position) }
  }

}
