import SimulationEngine

/// Background (silent) pushes to the app on this device: the server sends one on each change of a kind
/// with `on_change: silent_push`; APNs keeps one undelivered push per app, so a newer one replaces a held
/// one [D]; the device launches the app for at most `per_hour` in any sliding hour and `per_day` in any
/// sliding 24 h [D: "two or three an hour"; daily budget O], holding the push past either; a force-quit
/// app is never launched [D, staff], nor one the user has not launched for `app.dormant_after` (the push
/// is not delivered to it [D, staff: forums thread 776933]). Owns the `silentPushDelivery` event.
struct SilentPushChannel {
  let settings: SilentPushConfiguration
  private var pending: HeldPush?
  private var launchesLastHour = SlidingWindowCounter(length: .hours(1))
  private var launchesLastDay = SlidingWindowCounter(length: .days(1))
  let delayStream: RandomStream

  /// A push sent and not yet delivered.
  private struct HeldPush {
    let sendHour: Int
    let delivery: EventHandle
    /// Whether it waited past its delivery delay (throttled, or the phone was off).
    var held: Bool
  }

  init(settings: SilentPushConfiguration, delayStream: RandomStream) {
    self.settings = settings
    self.delayStream = delayStream
  }

  /// The server sends a push now: it replaces a push still undelivered (dropped).
  mutating func send(clockOffset: SimDuration, _ scheduler: inout Scheduler, _ result: inout ReplicationResult) {
    let now = scheduler.now
    result.serverLoad.recordPush(.silentPush, delivered: false, at: now, offset: clockOffset)
    if let pending {
      scheduler.cancel(pending.delivery)
      result.countAppWake(hourIndex: pending.sendHour, .silentPush, .dropped)
    }
    let delay = SimDuration(seconds: Swift.max(0, settings.delay.sample(delayStream)))
    pending = HeldPush(
      sendHour: now.hourIndex,
      delivery: scheduler.schedule(at: now + delay, kind: DeviceEventKind.silentPushDelivery.eventKind),
      held: false)
  }

  /// A push that reached the app's device: a launch (`granted` or `deferred`) or a refusal (`denied`, with
  /// the reason), counted in the hour it was sent.
  struct Launch {
    let outcome: AppWakeOutcome
    let sendHour: Int
  }

  /// The held push reaches the device. Returns the launch it asks for, or its refusal (the caller counts
  /// either: the launch may still expire); a phone that is off gets it an hour later, a throttled push waits
  /// until the caps allow it, a force-quit or dormant app is not launched (the push is spent, `denied` with
  /// the reason, and takes no place under the caps).
  mutating func deliver(
    poweredOff: Bool, forceQuit: Bool, dormant: Bool, clockOffset: SimDuration, _ scheduler: inout Scheduler,
    _ result: inout ReplicationResult
  ) -> Launch? {
    guard let waiting = pending else { return nil }
    let now = scheduler.now
    let allowed = Swift.max(
      launchesLastHour.nextBelow(settings.perHour, at: now), launchesLastDay.nextBelow(settings.perDay, at: now))
    if poweredOff || allowed > now {
      let at = poweredOff ? Swift.max(allowed, now + SimDuration.hour) : allowed
      pending = HeldPush(
        sendHour: waiting.sendHour,
        delivery: scheduler.schedule(at: at, kind: DeviceEventKind.silentPushDelivery.eventKind), held: true)
      return nil
    }
    pending = nil
    result.serverLoad.recordPush(.silentPush, delivered: true, at: now, offset: clockOffset)
    if forceQuit || dormant {
      return Launch(outcome: forceQuit ? .deniedForceQuit : .deniedDormant, sendHour: waiting.sendHour)
    }
    launchesLastHour.record(now)
    launchesLastDay.record(now)
    return Launch(outcome: waiting.held ? .deferred : .granted, sendHour: waiting.sendHour)
  }

  /// The run ended: a push still held is dropped.
  mutating func finish(_ result: inout ReplicationResult) {
    if let pending { result.countAppWake(hourIndex: pending.sendHour, .silentPush, .dropped) }
    pending = nil
  }
}
