import Results
import SimulationEngine

/// Pushes of one kind that launch the app in the background (``PushKindRow/launches``; the background,
/// silent push): the server sends one on each change of a kind whose `on_change` names it; APNs keeps one
/// undelivered push per app, so a newer one replaces a held one [D]; the device launches the app for at
/// most `per_hour` in any sliding hour and `per_day` in any sliding 24 h [D: "two or three an hour"; daily
/// budget O], holding the push past either; a force-quit app is never launched [D, staff], nor one the user
/// has not launched for `app.dormant_after` (the push is not delivered to it [D, staff: forums thread
/// 776933]). Owns the `silentPushDelivery` event whose target is its place in ``PushKind/launching``. It
/// answers each input with what happened (``Send``, ``Delivery``); the device schedules, cancels, counts
/// and launches the app.
struct LaunchingPushChannel {
  let kind: PushKind
  /// The wake channel it launches the app on.
  let wakeChannel: AppWakeChannel
  let settings: LaunchingPushConfiguration
  private var pending: HeldPush?
  private var launchesLastHour = SlidingWindowCounter(length: .hours(1))
  private var launchesLastDay = SlidingWindowCounter(length: .days(1))
  let delayStream: RandomStream
  /// The scheduled delivery event (the device's handle, to cancel it when a newer push replaces this one).
  var delivery: EventHandle?

  /// A push sent and not yet delivered.
  private struct HeldPush {
    let sendHour: Int
    /// Whether it waited past its delivery delay (throttled, or the phone was off).
    var held: Bool
  }

  init(_ kind: PushKind, settings: LaunchingPushConfiguration, delayStream: RandomStream) {
    guard let channel = kind.row.launches else { preconditionFailure("\(kind) does not launch the app") }
    self.kind = kind
    self.wakeChannel = channel
    self.settings = settings
    self.delayStream = delayStream
  }

  /// A send: the hour of the push it replaced (dropped: the device cancels its delivery and counts it), and
  /// when the new one is to be delivered (nil: it is lost, never delivered).
  struct Send: Equatable {
    let droppedHour: Int?
    let deliverAt: SimTime?
  }

  /// The server sends a push at `now`: it replaces a push still undelivered. With `loss` set, it is lost
  /// with that probability: it still replaces the held one, and nothing is held after it. (The loss is
  /// drawn only when the key is set, so a scenario without it draws what it always drew.)
  mutating func send(at now: SimTime) -> Send {
    let dropped = pending?.sendHour
    if settings.loss > 0 && delayStream.uniform() < settings.loss {
      pending = nil
      return Send(droppedHour: dropped, deliverAt: nil)
    }
    let delay = SimDuration(seconds: Swift.max(0, settings.delay.sample(delayStream)))
    pending = HeldPush(sendHour: now.hourIndex, held: false)
    return Send(droppedHour: dropped, deliverAt: now + delay)
  }

  /// What became of the held push when its delivery came.
  enum Delivery: Equatable {
    /// No push was held.
    case none
    /// Held: the phone is off (an hour later at the earliest) or a cap is reached (until it allows one);
    /// the device schedules it again.
    case later(SimTime)
    /// Delivered to the device: the launch it asks for (`granted` or `deferred`) or its refusal (`denied`,
    /// with the reason: a force-quit or dormant app, which takes no place under the caps), counted in the
    /// hour it was sent.
    case reached(AppWakeOutcome, sendHour: Int)
  }

  /// The held push reaches the device at `now`.
  mutating func deliver(at now: SimTime, poweredOff: Bool, forceQuit: Bool, dormant: Bool) -> Delivery {
    guard let waiting = pending else { return .none }
    let allowed = Swift.max(
      launchesLastHour.nextBelow(settings.perHour, at: now), launchesLastDay.nextBelow(settings.perDay, at: now))
    if poweredOff || allowed > now {
      pending?.held = true
      return .later(poweredOff ? Swift.max(allowed, now + SimDuration.hour) : allowed)
    }
    pending = nil
    if forceQuit || dormant {
      return .reached(forceQuit ? .deniedForceQuit : .deniedDormant, sendHour: waiting.sendHour)
    }
    launchesLastHour.record(now)
    launchesLastDay.record(now)
    return .reached(waiting.held ? .deferred : .granted, sendHour: waiting.sendHour)
  }

  /// The run ended: the hour of a push still held, which is dropped.
  mutating func finish() -> Int? {
    defer { pending = nil }
    return pending?.sendHour
  }
}
