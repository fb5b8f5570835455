import SimulationEngine

/// The server's pushes to this device and their deliveries: the push channels say what happened
/// (``WidgetPushChannel``, a ``LaunchingPushChannel`` per push kind that launches the app); the device schedules and cancels their delivery events,
/// counts their fates, pays the wake-up and raises the reload or the launch, here in one place.
extension DeviceSimulation {
  /// The server sends a push of kind `push` now (a kind that launches the app: ``sendLaunchingPush(_:_:)``).
  mutating func send(_ push: PushKind, _ scheduler: inout Scheduler) {
    switch push {
    case .widget: sendWidgetPush(&scheduler)
    case .silent: sendLaunchingPush(push, &scheduler)
    }
  }

  /// The server sends a WidgetKit push now.
  mutating func sendWidgetPush(_ scheduler: inout Scheduler) {
    let now = scheduler.now
    timeline?.add(.push(.widget, .sent), at: now)
    fieldLog?.add(.sent(.widget), at: now)
    recorder.countPush(hourIndex: now.hourIndex, target: .widgetTopic, priority: 10, .sent)
    recorder.recordPush(.widgetPush, delivered: false, at: now, offset: clockOffset)
    let send = widgetPush.send(at: now, asleep: user.asleep, nextWake: user.nextWake)
    if let hour = send.supersededHour {
      if let delivery = widgetPush.delivery { scheduler.cancel(delivery) }
      recorder.countPush(hourIndex: hour, target: .widgetTopic, priority: 10, .superseded)
    }
    widgetPush.delivery = scheduler.schedule(at: send.deliverAt, kind: PushEvent.widgetPushDelivery.eventKind)
  }

  /// The pending WidgetKit push reaches the device: delivered within budget, it pays the wake-up and reloads
  /// the push-enabled widgets (every widget with `reloads: all`).
  mutating func widgetPushArrived(_ scheduler: inout Scheduler) {
    let now = scheduler.now
    switch widgetPush.deliver(at: now, poweredOff: power.isOff, asleep: user.asleep, nextWake: user.nextWake) {
    case .none: return
    case .later(let time):
      widgetPush.delivery = scheduler.schedule(at: time, kind: PushEvent.widgetPushDelivery.eventKind)
    case .throttled(let hour):
      widgetPush.delivery = nil
      recorder.countPush(hourIndex: hour, target: .widgetTopic, priority: 10, .throttled)
    case .delivered(let hour):
      widgetPush.delivery = nil
      recorder.countPush(hourIndex: hour, target: .widgetTopic, priority: 10, .delivered)
      recorder.recordPush(.widgetPush, delivered: true, at: now, offset: clockOffset)
      timeline?.add(.push(.widget, .delivered), at: now)
      fieldLog?.add(.delivered(.widget), at: now)
      eventPushDelivered(at: now)
      processor.power.bookPushWake(subject: result.widgetPushSubject, at: now, &recorder)
      raise(.push, system.widgetPush.reloads == .all ? .everyInstance : .pushHandlers, &scheduler)
    }
  }

  /// The server sends a push of a kind that launches the app now: it replaces one of its kind still held
  /// (dropped).
  mutating func sendLaunchingPush(_ kind: PushKind, _ scheduler: inout Scheduler) {
    guard let index = PushKind.launching.firstIndex(of: kind) else {
      return assertionFailure("\(kind) pushes do not launch the app")
    }
    let now = scheduler.now
    let (row, channel) = (launchingPushes[index].kind.row, launchingPushes[index].wakeChannel)
    timeline?.add(.push(row.kind, .sent), at: now)
    fieldLog?.add(.sent(row.kind), at: now)
    recorder.recordPush(row.serverSource, delivered: false, at: now, offset: clockOffset)
    let send = launchingPushes[index].send(at: now)
    if let hour = send.droppedHour {
      if let delivery = launchingPushes[index].delivery { scheduler.cancel(delivery) }
      launchingPushes[index].delivery = nil
      recorder.countAppWake(hourIndex: hour, channel, .dropped)
    }
    guard let deliverAt = send.deliverAt else {
      return recorder.countAppWake(hourIndex: now.hourIndex, channel, .lost)
    }
    launchingPushes[index].delivery = scheduler.schedule(
      at: deliverAt, kind: PushEvent.silentPushDelivery.eventKind, target: UInt32(index))
  }

  /// The held push of the channel at `index` reaches the device: held again (the phone off, a cap reached),
  /// refused (a force-quit or dormant app), or the app launched in the background.
  mutating func launchingPushArrived(_ index: Int, _ scheduler: inout Scheduler) {
    let now = scheduler.now
    let (row, channel) = (launchingPushes[index].kind.row, launchingPushes[index].wakeChannel)
    let delivery = launchingPushes[index].deliver(
      at: now, poweredOff: power.isOff, forceQuit: app.life == .forceQuit, dormant: app.isDormant(at: now))
    switch delivery {
    case .none: return
    case .later(let time):
      launchingPushes[index].delivery = scheduler.schedule(
        at: time, kind: PushEvent.silentPushDelivery.eventKind, target: UInt32(index))
    case .reached(let outcome, let hour):
      launchingPushes[index].delivery = nil
      recorder.recordPush(row.serverSource, delivered: true, at: now, offset: clockOffset)
      timeline?.add(.push(row.kind, .delivered), at: now)
      guard outcome == .granted || outcome == .deferred else {
        return countLaunch(channel, outcome, hourIndex: hour, at: now)
      }
      eventPushDelivered(at: now)
      processor.power.bookPushWake(subject: result.appSubject, at: now, &recorder)
      backgroundLaunch(channel, outcome: outcome, hourIndex: hour, &scheduler)
    }
  }
}
