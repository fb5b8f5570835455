import Results
import SimulationEngine

/// When each broadcast channel sends its updates in one replication, on the UTC clock: drawn once for the
/// whole fleet (every device of the replication sees the same updates), from 14 h before the run to 14 h
/// after it, so devices in every time zone see a full run's worth.
public struct BroadcastSchedule: Sendable {
  /// Every channel's update times in microseconds since day 0 00:00 UTC, ascending per channel, one flat
  /// array; channel `c`'s are `utcMicros[ranges[c]]`.
  public let utcMicros: [Int64]
  public let ranges: [Range<Int>]

  /// The entity whose streams draw fleet-wide processes (no device has this index).
  static let fleetEntity = UInt64.max

  public init(_ configuration: borrowing ScenarioConfiguration, replication: Int) {
    var times: [Int64] = []
    var ranges: [Range<Int>] = []
    let margin = ServerLoad.maximumOffset
    // Drawn on a clock shifted a day later, so daily windows apply to non-negative times.
    let shift = SimDuration.day
    let first = SimTime.zero + shift - margin
    let last = SimTime.zero + shift + .days(Int64(configuration.simulatedDays)) + margin
    for channel in configuration.broadcastChannels {
      let start = times.count
      let stream = RandomStream(
        seed: StreamSeed(
          scenarioSeed: configuration.seed, replication: UInt64(replication), entity: BroadcastSchedule.fleetEntity,
          stream: StreamRole.broadcastUpdates.streamID(label: channel.id)))
      var time = SimTime.zero
      while time < last {
        time = time + SimDuration(seconds: Swift.max(1, channel.updateInterval.sample(stream)))
        if let window = channel.activeWindow, !window.contains(time) {
          // Closed: the next update comes an interval after the window next opens.
          time = window.from.next(after: time)
          continue
        }
        if time >= first && time < last { times.append((time - shift).microseconds) }
      }
      ranges.append(start..<times.count)
    }
    utcMicros = times
    self.ranges = ranges
  }

  /// A schedule of given update times (channel `c`'s are `utcMicros[ranges[c]]`).
  init(utcMicros: [Int64], ranges: [Range<Int>]) {
    self.utcMicros = utcMicros
    self.ranges = ranges
  }

  /// Updates channel `channel` sends in the run (between the first and last UTC day's midnights).
  public func updates(channel: Int, days: Int) -> Int {
    let end = SimDuration.days(Int64(days)).microseconds
    return utcMicros[ranges[channel]].count { $0 >= 0 && $0 < end }
  }
}

/// One device's side of the broadcast channels: which of its running Live Activities subscribe to each, the
/// channel's next update on the device's clock, and (storage `most_recent`) an update missed while the
/// phone was off, delivered when it returns [D, WWDC24]. It answers a subscription and an update with when
/// the channel's next `broadcastUpdate` event (target: the channel) must run, if one must, and its owner
/// schedules it; an update's event is pending only while someone subscribes.
struct BroadcastReception {
  let storage: [BroadcastStorage]
  let schedule: BroadcastSchedule
  /// The device's clock runs this far ahead of UTC.
  let offset: SimDuration
  /// Per channel: the position of its next update in the schedule, whether its update event is pending,
  /// running activities subscribed, and (storage `most_recent`) when the update the phone missed while off
  /// was sent.
  private var next: [Int]
  private var pending: [Bool]
  private(set) var subscribers: [Int]
  var missedAt: [SimTime?]

  init(channels: [BroadcastChannelConfiguration], schedule: BroadcastSchedule, offset: SimDuration) {
    storage = channels.map(\.storage)
    self.schedule = schedule
    self.offset = offset
    next = schedule.ranges.map(\.lowerBound)
    pending = Array(repeating: false, count: channels.count)
    subscribers = Array(repeating: 0, count: channels.count)
    missedAt = Array(repeating: nil, count: channels.count)
  }

  /// An activity subscribed at `now`: when the channel's next update must be scheduled, unless one is
  /// pending already (or the channel sends no more).
  mutating func subscribe(_ channel: Int, now: SimTime) -> SimTime? {
    subscribers[channel] += 1
    return pending[channel] ? nil : nextUpdate(channel, after: now)
  }

  /// An activity ended (the pending update, if any, finds no one and schedules no more; a stored message
  /// with no one left to deliver it to is dropped).
  mutating func unsubscribe(_ channel: Int) {
    subscribers[channel] -= 1
    if subscribers[channel] == 0 { missedAt[channel] = nil }
  }

  /// The channel's update event ran at `now`: when the next must be scheduled, while someone subscribes.
  mutating func fired(_ channel: Int, now: SimTime) -> SimTime? {
    pending[channel] = false
    return subscribers[channel] > 0 ? nextUpdate(channel, after: now) : nil
  }

  /// The channel's first update after `now` on the device's clock, now pending; nil when it sends no more.
  private mutating func nextUpdate(_ channel: Int, after now: SimTime) -> SimTime? {
    let nowUTC = now.microseconds - offset.microseconds
    let end = schedule.ranges[channel].upperBound
    var position = next[channel]
    while position < end && schedule.utcMicros[position] <= nowUTC { position += 1 }
    next[channel] = position
    guard position < end else { return nil }
    pending[channel] = true
    return SimTime(microseconds: schedule.utcMicros[position] + offset.microseconds)
  }
}

/// The channels' updates reaching this device's activities.
extension LiveActivities {
  /// Channel `channel` sends an update: every running activity subscribed to it receives it as its own
  /// push would arrive (budget, priority, rendering). A switched-off phone misses it: lost with storage
  /// `none`; with `most_recent` it is kept (replacing, as `superseded`, one kept before) and delivered when
  /// the phone returns.
  mutating func broadcast(
    channel: Int, poweredOff: Bool, _ timers: inout some ActivityTimers & ~Copyable,
    _ result: inout some ActivityRecording
  ) {
    let now = timers.now
    if let next = channels.fired(channel, now: now) { scheduleBroadcast(channel, at: next, &timers) }
    let earlier = channels.missedAt[channel]
    var position = 0
    while let activity = nextSubscriber(of: channel, from: &position) {
      let kind = records[activity.index].kind
      if poweredOff {
        // Sent to APNs, not delivered: the content falls behind.
        let priority = kinds[kind.index].priority
        records[activity.index].updatesSent += 1
        if runtime[activity.index].firstUndelivered == nil { runtime[activity.index].firstUndelivered = now }
        result.countPush(hourIndex: now.hourIndex, target: .activity(kind), priority: priority, .sent)
        if channels.storage[channel] == .none {
          records[activity.index].updatesLost += 1
          result.countPush(hourIndex: now.hourIndex, target: .activity(kind), priority: priority, .lost)
        } else if let earlier {
          records[activity.index].updatesSuperseded += 1
          result.countPush(hourIndex: earlier.hourIndex, target: .activity(kind), priority: priority, .superseded)
        }
        if channels.storage[channel] == .mostRecent { channels.missedAt[channel] = now }
      } else {
        push(activity, poweredOff: false, &timers, &result)
      }
    }
  }

  /// Schedules channel `channel`'s next update, as the reception asked.
  func scheduleBroadcast(_ channel: Int, at time: SimTime, _ timers: inout some ActivityTimers & ~Copyable) {
    timers.schedule(.broadcastUpdate, for: UInt32(channel), at: time)
  }

  /// The phone is back on: channels with storage `most_recent` deliver the latest update it missed to
  /// every subscribed running activity.
  mutating func deviceReturned(_ timers: inout some ActivityTimers & ~Copyable, _ result: inout some ActivityRecording)
  {
    for channel in channels.missedAt.indices {
      guard let sentAt = channels.missedAt[channel] else { continue }
      channels.missedAt[channel] = nil
      var position = 0
      while let activity = nextSubscriber(of: channel, from: &position) {
        // The stored message carries the latest content (it was counted as sent when the channel sent it).
        push(activity, poweredOff: false, stored: sentAt, &timers, &result)
      }
    }
  }

  /// The next active activity subscribed to `channel` on the Lock Screen list at or after `position`, which
  /// moves past it; nil at the end. (A loop, not a filtered copy: no allocation per update.)
  func nextSubscriber(of channel: Int, from position: inout Int) -> ActivityID? {
    while position < onLockScreen.count {
      let activity = onLockScreen[position]
      position += 1
      if runtime[activity.index].phase == .active
        && kinds[records[activity.index].kind.index].broadcastChannel == channel
      {
        return activity
      }
    }
    return nil
  }
}
