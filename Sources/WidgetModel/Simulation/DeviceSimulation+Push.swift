import SimulationEngine

/// WidgetKit push notifications: sent by the server on data changes, one pending per topic, delivered
/// opportunistically under a per-hour and per-day budget, each delivery a budgeted reload of every widget.
extension DeviceSimulation {
  /// The app's server sends a widget push now.
  mutating func sendWidgetPush(_ scheduler: inout Scheduler) {
    let now = scheduler.now
    let hour = hourIndex(now)
    countPush(hour: hour, target: 0, priority: 10, .sent)
    result.serverLoad.recordPush(delivered: false, at: now, offset: clockOffset)
    if let pending = widgetPushPending {
      scheduler.cancel(pending.delivery)
      countPush(hour: pending.sendHour, target: 0, priority: 10, .superseded)
    }
    let settings = system.widgetPush
    let base = settings.waitWhileAsleep && asleep ? Swift.max(now, nextWake) : now
    let delay = SimDuration(seconds: Swift.max(0, settings.delay.sample(widgetPushDelayStream)))
    let delivery = scheduler.schedule(at: base + delay, kind: DeviceEventKind.widgetPushDelivery.eventKind)
    widgetPushPending = PendingPush(sendHour: hour, delivery: delivery)
  }

  /// The pending widget push reaches the device: delivered within budget (a budgeted reload of every
  /// widget, like `reloadAllTimelines()`), else throttled. While the user sleeps it waits for them to wake.
  mutating func deliverWidgetPush(_ scheduler: inout Scheduler) {
    guard let pending = widgetPushPending else { return }
    let now = scheduler.now
    let settings = system.widgetPush
    if poweredOff {
      widgetPushPending = PendingPush(
        sendHour: pending.sendHour,
        delivery: scheduler.schedule(after: DeviceSimulation.hour, kind: DeviceEventKind.widgetPushDelivery.eventKind))
      return
    }
    if settings.waitWhileAsleep && asleep {
      widgetPushPending = PendingPush(
        sendHour: pending.sendHour,
        delivery: scheduler.schedule(at: Swift.max(now, nextWake), kind: DeviceEventKind.widgetPushDelivery.eventKind))
      return
    }
    widgetPushPending = nil
    let lastHour = Double(widgetPushesLastHour.count(at: now))
    let lastDay = Double(widgetPushesLastDay.count(at: now))
    guard lastHour < settings.perHour && lastDay < settings.perDay else {
      countPush(hour: pending.sendHour, target: 0, priority: 10, .throttled)
      return
    }
    countPush(hour: pending.sendHour, target: 0, priority: 10, .delivered)
    result.serverLoad.recordPush(delivered: true, at: now, offset: clockOffset)
    widgetPushesLastHour.record(now)
    widgetPushesLastDay.record(now)
    bookPushWake(subject: result.widgetPushSubject, at: now)
    for instance in instances.indices { request(instance, cause: .push, &scheduler) }
  }

  mutating func countPush(hour: Int, target: Int, priority: Int, _ counter: PushCounter) {
    let clamped = Swift.min(hour, result.days * 24 - 1)
    result.pushCounts[result.pushIndex(hourIndex: clamped, target: target, priority: priority, counter: counter)] += 1
  }

  func hourIndex(_ time: SimTime) -> Int {
    Int(time.microseconds / DeviceSimulation.hour.microseconds)
  }
}
