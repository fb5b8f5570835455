import SimulationEngine

/// The app's data kinds whose changes come on their own clock (``ScheduledChanges``): each kind's next start
/// on the device's local clock, the updates of a burst in progress, and how many bursts are live now (views
/// then count apart: freshness while an order is under way). Owns the `scheduledChange` events (target: the
/// kind) and `burstUpdate` events (target: the burst's slot, with ``lastUpdateFlag`` on its last update).
struct DataBursts {
  /// A burst under way: its kind and the Live Activity it started (an order's own activity).
  struct Slot {
    var kind: Int
    var activity: ActivityID?
  }

  let scheduled: [ScheduledChanges?]
  let streams: [RandomStream?]
  /// Per kind: bursts started and not yet at their last update.
  private(set) var live: [Int]
  /// Bursts under way by slot; free slots are reused (the table grows only past the most bursts ever
  /// under way at once).
  private(set) var slots: [Slot] = []
  private var freeSlots: [Int] = []
  /// Whether some kind changes in bursts of several updates (its own, or a fleet event's follow-ups).
  let anyBursty: Bool
  let end: SimTime

  static let lastUpdateFlag: UInt32 = 1 << 31

  init(kinds: [DataConfiguration], eventBursts: Bool, streams: (Int) -> RandomStream, end: SimTime) {
    scheduled = kinds.map(\.scheduled)
    self.streams = kinds.indices.map { kinds[$0].scheduled == nil ? nil : streams($0) }
    live = Array(repeating: 0, count: kinds.count)
    anyBursty = eventBursts || kinds.contains { $0.scheduled?.isBursty ?? false }
    self.end = end
  }

  mutating func start(_ timers: inout some DataTimers & ~Copyable) {
    for kind in scheduled.indices where scheduled[kind] != nil { scheduleNextStart(kind, &timers) }
  }

  private func scheduleNextStart(_ kind: Int, _ timers: inout some DataTimers & ~Copyable) {
    guard let changes = scheduled[kind], let stream = streams[kind],
      let next = changes.starts.next(after: timers.now, before: end, stream)
    else { return }
    timers.schedule(.scheduledChange, for: UInt32(kind), at: next)
  }

  /// A burst (or a single change) of `kind` starts now: the next start is drawn, and the burst's further
  /// updates are scheduled, each `spacing` after the one before. Returns the burst's slot (nil for a single
  /// change), for the activity it starts.
  @discardableResult
  mutating func started(_ kind: Int, _ timers: inout some DataTimers & ~Copyable) -> Int? {
    scheduleNextStart(kind, &timers)
    guard let changes = scheduled[kind], changes.updates > 1, let stream = streams[kind] else { return nil }
    live[kind] += 1
    let slot: Int
    if let free = freeSlots.popLast() {
      slot = free
      slots[slot] = Slot(kind: kind, activity: nil)
    } else {
      slot = slots.count
      slots.append(Slot(kind: kind, activity: nil))
    }
    var time: SimTime? = timers.now
    for update in 1..<changes.updates {
      let seconds = Swift.max(1, changes.spacing?.sample(stream) ?? 600)
      // An update past the run's end never runs, and a heavy-tailed spacing can reach past any clock: from
      // there the rest are drawn (the stream stays where it was) but not scheduled.
      guard let last = time, seconds <= (end - last).seconds + 1 else {
        time = nil
        continue
      }
      let at = last + SimDuration(seconds: seconds)
      time = at
      let flag = update == changes.updates - 1 ? DataBursts.lastUpdateFlag : 0
      timers.schedule(.burstUpdate, for: UInt32(slot) | flag, at: at)
    }
    return slot
  }

  /// The Live Activity the burst in `slot` started.
  mutating func attach(_ activity: ActivityID, to slot: Int) { slots[slot].activity = activity }

  /// A burst's update ran; the target as scheduled. Returns the burst (freed after its last update).
  mutating func updated(target: UInt32) -> Slot {
    let index = Int(target & ~DataBursts.lastUpdateFlag)
    let slot = slots[index]
    if target & DataBursts.lastUpdateFlag != 0 {
      live[slot.kind] -= 1
      freeSlots.append(index)
    }
    return slot
  }

  /// A fleet event's burst of `kind` began (+1) or ended (-1); a burst that began before the run is not
  /// counted when it ends.
  mutating func step(_ kind: Int, by change: Int) {
    live[kind] = Swift.max(0, live[kind] + change)
  }

  /// Whether a burst of `kind` is under way.
  func isLive(_ kind: KindID) -> Bool { anyBursty && live[kind.index] > 0 }
}
