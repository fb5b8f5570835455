import Results
import SimulationEngine

/// A display the phone is docked to that shows widgets while it is on and refreshes them every `interval`,
/// exempt: StandBy while the phone charges on the nightstand (the user asleep) [D], and CarPlay while the
/// user drives (rendered StandBy-style [D]; refreshed the same way [A]). Owns its refresh event
/// (`standbyRefresh`, `carplayRefresh`).
struct DockedDisplay {
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
