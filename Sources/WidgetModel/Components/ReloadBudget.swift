import DequeModule
import SimulationEngine

/// One widget instance's reload budget: an allowance per 24 h, spent by budgeted reloads and refilled
/// as ``BudgetRefill`` says.
struct ReloadBudget {
  let refill: BudgetRefill
  /// Reloads per 24 h currently allowed (changes with engagement and the learning period).
  private(set) var allowance: Double
  /// Continuous mode: tokens in the bucket (0...allowance).
  private var tokens: Double
  private var updatedAt: SimTime
  /// Rolling mode: times of the budgeted reloads of the last 24 h, oldest first.
  private var recentGrants: Deque<SimTime> = []
  /// Daily mode: budgeted reloads since the last midnight, and which day that is.
  private var grantsToday = 0
  private var today: Int64 = 0

  static var day: SimDuration { SimDuration(microseconds: 86_400_000_000) }
  /// A time no simulation reaches, for "no budget will come back".
  static var never: SimTime { SimTime(microseconds: 1 << 61) }
  /// Rounding slack on accrued tokens, so a token due at t is available at t.
  private static let epsilon = 1e-9

  init(refill: BudgetRefill, allowance: Double, start: SimTime) {
    self.refill = refill
    self.allowance = allowance
    tokens = allowance
    updatedAt = start
    // Room for a day of grants at the largest usual allowance (72 a day [D]) and then some: the window
    // does not grow, and reallocate, through a device's first day.
    if refill == .rolling24h { recentGrants.reserveCapacity(128) }
  }

  /// Whole reloads a window may hold in the rolling and daily modes.
  private var capacity: Int { Int(allowance.rounded(.down)) }

  /// Brings the budget's state to `now`: accrues tokens, forgets grants older than 24 h, resets at midnight.
  mutating func advance(to now: SimTime) {
    switch refill {
    case .continuous:
      let elapsed = (now - updatedAt).seconds
      if elapsed > 0 { tokens = Swift.min(allowance, tokens + allowance * elapsed / 86_400) }
    case .rolling24h:
      while let oldest = recentGrants.first, oldest + ReloadBudget.day <= now { recentGrants.removeFirst() }
    case .daily:
      let day = now.microseconds / ReloadBudget.day.microseconds
      if day != today {
        today = day
        grantsToday = 0
      }
    }
    updatedAt = now
  }

  /// Whether a budgeted reload may run now (after ``advance(to:)``).
  var hasBudget: Bool {
    switch refill {
    case .continuous: tokens >= 1 - ReloadBudget.epsilon
    case .rolling24h: recentGrants.count < capacity
    case .daily: grantsToday < capacity
    }
  }

  /// Spends one reload at `now`. Debug mode may spend with nothing left: the count stops at zero.
  mutating func spend(at now: SimTime) {
    switch refill {
    case .continuous: tokens = Swift.max(0, tokens - 1)
    case .rolling24h: recentGrants.append(now)
    case .daily: grantsToday += 1
    }
  }

  /// Reloads left now (after ``advance(to:)``); fractional in continuous mode.
  var remaining: Double {
    switch refill {
    case .continuous: tokens
    case .rolling24h: Double(Swift.max(0, capacity - recentGrants.count))
    case .daily: Double(Swift.max(0, capacity - grantsToday))
    }
  }

  /// The earliest time a reload will be available if nothing changes, `never` if it cannot be.
  func nextAvailable(after now: SimTime) -> SimTime {
    if hasBudget { return now }
    switch refill {
    case .continuous:
      guard allowance > 0 else { return ReloadBudget.never }
      let needed = 1 - tokens
      let micros = (needed * 86_400e6 / allowance).rounded(.up)
      return now + SimDuration(microseconds: Int64(micros))
    case .rolling24h:
      guard capacity > 0 else { return ReloadBudget.never }
      // Enough of the oldest grants must age out to get below capacity.
      let index = recentGrants.count - capacity
      return recentGrants[index] + ReloadBudget.day
    case .daily:
      guard capacity > 0 else { return ReloadBudget.never }
      return SimTime(microseconds: (today + 1) * ReloadBudget.day.microseconds)
    }
  }

  /// Changes the allowance at `now` (engagement or learning changed); tokens above it are lost.
  mutating func setAllowance(_ newAllowance: Double, at now: SimTime) {
    advance(to: now)
    allowance = newAllowance
    tokens = Swift.min(tokens, newAllowance)
  }
}
