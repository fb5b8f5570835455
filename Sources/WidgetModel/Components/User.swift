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
