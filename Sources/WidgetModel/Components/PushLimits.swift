import DequeModule
import SimulationEngine

/// A push sent but not yet delivered: APNs keeps at most one per topic.
struct PendingPush {
  /// The hour (since the start) it was sent in, where its fate is counted.
  let sendHour: Int
  /// When it was sent: a Live Activity update's stale date counts from it.
  var sendTime = SimTime.zero
  let delivery: EventHandle
}

/// Deliveries in a sliding window, for push budgets ("at most n per hour").
struct SlidingWindowCounter {
  let length: SimDuration
  private var times: Deque<SimTime> = []

  init(length: SimDuration) {
    self.length = length
  }

  /// Deliveries within `length` before `now`.
  mutating func count(at now: SimTime) -> Int {
    while let oldest = times.first, oldest + length <= now { times.removeFirst() }
    return times.count
  }

  mutating func record(_ now: SimTime) {
    times.append(now)
  }

  /// The earliest time the count within `length` falls below `limit` (now if it already is).
  mutating func nextBelow(_ limit: Double, at now: SimTime) -> SimTime {
    let count = count(at: now)
    guard Double(count) >= limit else { return now }
    guard limit > 0 else { return ReloadBudget.never }
    // Dropping the oldest `count - allowed + 1` deliveries brings the count below the limit.
    let allowed = Swift.max(0, Int(limit.rounded(.up)) - 1)
    return times[count - allowed - 1] + length
  }
}

/// A small token bucket: `capacity` tokens, refilled at `perHour`, starting full (push-to-start).
struct TokenBucket {
  let capacity: Double
  let perHour: Double
  private var tokens: Double
  private var updatedAt = SimTime.zero

  init(capacity: Double, perHour: Double) {
    self.capacity = capacity
    self.perHour = perHour
    tokens = capacity
  }

  /// Takes a token if one is there.
  mutating func take(at now: SimTime) -> Bool {
    tokens = Swift.min(capacity, tokens + perHour * (now - updatedAt).seconds / 3_600)
    updatedAt = now
    guard tokens >= 1 - 1e-9 else { return false }
    tokens = Swift.max(0, tokens - 1)
    return true
  }
}
