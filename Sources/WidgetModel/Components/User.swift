import Results
import SimulationEngine

/// The user: asleep or awake (daily, at the sleep window's edges), and which Home Screen page they visit.
/// Owns the `sleep` and `wake` events. Their views, app opens, audio sessions and taps are processes of
/// the device's ``ProcessTable``; the device hands each to the component it concerns.
struct User {
  let configuration: UserConfiguration
  private(set) var asleep: Bool
  /// When the user next wakes (while awake: a day after the last wake).
  private(set) var nextWake = SimTime.zero
  let pageVisits: RandomStream

  init(_ configuration: UserConfiguration, pageVisits: RandomStream) {
    self.configuration = configuration
    asleep = configuration.sleep.contains(.zero)
    self.pageVisits = pageVisits
  }

  /// Schedules the first sleep and wake.
  mutating func start(_ timers: inout some UserTimers & ~Copyable) {
    let sleepAt = configuration.sleep.from.next(after: .zero)
    let wakeAt = configuration.sleep.to.next(after: .zero)
    nextWake = wakeAt
    timers.schedule(.sleep, at: sleepAt)
    timers.schedule(.wake, at: wakeAt)
  }

  /// The user falls asleep or wakes; the next such event is a day later.
  mutating func handle(_ event: UserEvent, _ timers: inout some UserTimers & ~Copyable) {
    switch event {
    case .sleep:
      asleep = true
      timers.schedule(.sleep, at: timers.now + SimDuration.day)
    case .wake:
      asleep = false
      nextWake = timers.now + SimDuration.day
      timers.schedule(.wake, at: nextWake)
    }
  }

  /// Whether this Home Screen view visits the other pages too.
  func visitsOtherPage() -> Bool {
    pageVisits.bernoulli(configuration.otherPageProbability)
  }
}

/// A display that shows widgets while it is on and refreshes them every `interval`, exempt: StandBy while
/// the phone charges on the nightstand (the user asleep) [D], and CarPlay while the user drives (rendered
/// StandBy-style [D]; refreshed the same way [A]). Owns its refresh event (`standbyRefresh`,
/// `carplayRefresh`).
struct StandbyDisplay {
  let enabled: Bool
  let interval: SimDuration
  /// The installed instances placed on it.
  let instances: [InstanceID]
  let event: DisplayEvent
  private var refreshEvent: EventHandle?

  init(enabled: Bool, interval: SimDuration, instances: [InstanceID], event: DisplayEvent) {
    self.enabled = enabled
    self.interval = interval
    self.instances = instances
    self.event = event
  }

  var isUsed: Bool { enabled && !instances.isEmpty }

  /// The display came on (the user fell asleep, started driving): refresh now, and every interval after.
  mutating func start(_ timers: inout some DisplayTimers & ~Copyable) {
    guard isUsed else { return }
    if let refreshEvent { timers.cancel(refreshEvent) }
    refreshEvent = timers.schedule(event, at: timers.now)
  }

  /// The display went off (the user woke, the drive ended).
  mutating func stop(_ timers: inout some DisplayTimers & ~Copyable) {
    if let refreshEvent { timers.cancel(refreshEvent) }
    refreshEvent = nil
  }

  /// A refresh ran: schedule the next (the device reloads ``instances``).
  mutating func refreshed(_ timers: inout some DisplayTimers & ~Copyable) {
    refreshEvent = timers.schedule(event, at: timers.now + interval)
  }
}
