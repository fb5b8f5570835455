import SimulationEngine

/// The app's WidgetKit push topic on this device: the server sends a push on a data change, APNs keeps one
/// pending per topic, and the device accepts deliveries under a per-hour and per-day budget [D]. Owns the
/// `widgetPushDelivery` event. It answers each input with what happened (``Send``, ``Delivery``); the
/// device schedules, cancels, counts and raises the reload (a delivery is a budgeted reload of every
/// widget with a push handler).
struct WidgetPushChannel {
  let settings: WidgetPushConfiguration
  /// The hour (since the start) the pending push was sent in, where its fate is counted; nil: none pends.
  private(set) var pendingSendHour: Int?
  private var deliveriesLastHour = SlidingWindowCounter(length: .hours(1))
  private var deliveriesLastDay = SlidingWindowCounter(length: .days(1))
  let delayStream: RandomStream
  /// The scheduled delivery event (the device's handle, to cancel it when a newer push replaces this one).
  var delivery: EventHandle?

  init(settings: WidgetPushConfiguration, delayStream: RandomStream) {
    self.settings = settings
    self.delayStream = delayStream
  }

  /// A send: the hour of the push it superseded (the device cancels that delivery and counts it), and when
  /// the new one is to be delivered.
  struct Send: Equatable {
    let supersededHour: Int?
    let deliverAt: SimTime
  }

  /// The server sends a push at `now`; a push still pending is superseded. While the user sleeps the
  /// delivery waits for them to wake when `wait_while_asleep`.
  mutating func send(at now: SimTime, asleep: Bool, nextWake: SimTime) -> Send {
    let superseded = pendingSendHour
    let base = settings.waitWhileAsleep && asleep ? Swift.max(now, nextWake) : now
    let delay = SimDuration(seconds: Swift.max(0, settings.delay.sample(delayStream)))
    pendingSendHour = now.hourIndex
    return Send(supersededHour: superseded, deliverAt: base + delay)
  }

  /// What became of the pending push when its delivery came.
  enum Delivery: Equatable {
    /// No push pended.
    case none
    /// The phone is off (an hour later) or the user asleep (on waking): the device schedules it again.
    case later(SimTime)
    /// Over the per-hour or per-day budget: dropped, counted in the hour it was sent.
    case throttled(sendHour: Int)
    /// Delivered: the device pays the wake-up and reloads the push-enabled widgets.
    case delivered(sendHour: Int)
  }

  /// The pending push reaches the device at `now`.
  mutating func deliver(at now: SimTime, poweredOff: Bool, asleep: Bool, nextWake: SimTime) -> Delivery {
    guard let sendHour = pendingSendHour else { return .none }
    if poweredOff || (settings.waitWhileAsleep && asleep) {
      return .later(poweredOff ? now + SimDuration.hour : Swift.max(now, nextWake))
    }
    pendingSendHour = nil
    let lastHour = Double(deliveriesLastHour.count(at: now))
    let lastDay = Double(deliveriesLastDay.count(at: now))
    guard lastHour < settings.perHour && lastDay < settings.perDay else { return .throttled(sendHour: sendHour) }
    deliveriesLastHour.record(now)
    deliveriesLastDay.record(now)
    return .delivered(sendHour: sendHour)
  }
}
