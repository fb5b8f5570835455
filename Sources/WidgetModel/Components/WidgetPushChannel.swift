import SimulationEngine

/// The app's WidgetKit push topic on this device: the server sends a push on a data change, APNs keeps one
/// pending per topic, and the device accepts deliveries under a per-hour and per-day budget [D]. Owns the
/// `widgetPushDelivery` event; a delivery is a budgeted reload of every widget (the device raises it).
struct WidgetPushChannel {
  let settings: WidgetPushConfiguration
  private var pending: PendingPush?
  private var deliveriesLastHour = SlidingWindowCounter(length: .hours(1))
  private var deliveriesLastDay = SlidingWindowCounter(length: .days(1))
  let delayStream: RandomStream

  init(settings: WidgetPushConfiguration, delayStream: RandomStream) {
    self.settings = settings
    self.delayStream = delayStream
  }

  /// The server sends a push now; a push still pending is superseded. While the user sleeps the delivery
  /// waits for them to wake when `wait_while_asleep`.
  mutating func send(
    asleep: Bool, nextWake: SimTime, clockOffset: SimDuration, _ scheduler: inout Scheduler,
    _ result: inout ReplicationResult
  ) {
    let now = scheduler.now
    result.countPush(hourIndex: now.hourIndex, target: .widgetTopic, priority: 10, .sent)
    result.serverLoad.recordPush(.widgetPush, delivered: false, at: now, offset: clockOffset)
    if let pending {
      scheduler.cancel(pending.delivery)
      result.countPush(hourIndex: pending.sendHour, target: .widgetTopic, priority: 10, .superseded)
    }
    let base = settings.waitWhileAsleep && asleep ? Swift.max(now, nextWake) : now
    let delay = SimDuration(seconds: Swift.max(0, settings.delay.sample(delayStream)))
    let delivery = scheduler.schedule(at: base + delay, kind: DeviceEventKind.widgetPushDelivery.eventKind)
    pending = PendingPush(sendHour: now.hourIndex, delivery: delivery)
  }

  /// The pending push reaches the device. Returns whether it was delivered within budget (the device then
  /// pays the wake-up and reloads every widget); a switched-off phone gets it an hour later, a sleeping
  /// user's on waking.
  mutating func deliver(
    poweredOff: Bool, asleep: Bool, nextWake: SimTime, clockOffset: SimDuration, _ scheduler: inout Scheduler,
    _ result: inout ReplicationResult
  ) -> Bool {
    guard let waiting = pending else { return false }
    let now = scheduler.now
    if poweredOff || (settings.waitWhileAsleep && asleep) {
      let at = poweredOff ? now + SimDuration.hour : Swift.max(now, nextWake)
      pending = PendingPush(
        sendHour: waiting.sendHour,
        delivery: scheduler.schedule(at: at, kind: DeviceEventKind.widgetPushDelivery.eventKind))
      return false
    }
    pending = nil
    let lastHour = Double(deliveriesLastHour.count(at: now))
    let lastDay = Double(deliveriesLastDay.count(at: now))
    guard lastHour < settings.perHour && lastDay < settings.perDay else {
      result.countPush(hourIndex: waiting.sendHour, target: .widgetTopic, priority: 10, .throttled)
      return false
    }
    result.countPush(hourIndex: waiting.sendHour, target: .widgetTopic, priority: 10, .delivered)
    result.serverLoad.recordPush(.widgetPush, delivered: true, at: now, offset: clockOffset)
    deliveriesLastHour.record(now)
    deliveriesLastDay.record(now)
    return true
  }
}
