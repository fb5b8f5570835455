import SimulationEngine

/// How a widget instance's reload budget refills.
public enum BudgetRefill: String, Sendable, CaseIterable {
  /// A token bucket holding up to a day's allowance, refilled evenly (allowance / 24 h per hour), full at the
  /// start. Withheld requests run as soon as a token accrues. Day 0, and any day after an idle spell, can see
  /// up to twice the allowance (a full bucket plus a day of refill): the bursty option.
  case continuous
  /// A sliding window, the default: each budgeted reload returns its unit 24 h later, so no 24 h window holds
  /// more reloads than the allowance in force (grants made under a larger allowance, in the learning period
  /// or before Low Power Mode, stay in the window until they age out).
  case rolling24h = "rolling_24h"
  /// The allowance resets at every midnight. Apple says the budget does not reset at midnight: for comparison.
  case daily
}

/// The per-instance reload budget (Apple, "Keeping a widget up to date"; WWDC21 "Principles of great
/// widgets"; rules and sources in docs/model.md).
public struct BudgetConfiguration: Sendable {
  /// Allowance per 24 h of a rarely viewed instance. [D] 40-70 for a frequently viewed widget.
  public var minPerDay: Double
  /// Allowance per 24 h of a fully engaged instance.
  public var maxPerDay: Double
  /// Views per day at which an instance counts as fully engaged ([assumption]); the allowance is
  /// `min + (max - min) * min(1, views in the last 24 h / engagedViewsPerDay)`.
  public var engagedViewsPerDay: Double
  public var refill: BudgetRefill
  /// Minimum time between two budgeted reloads of one instance ([D] entries >= ~5 min apart).
  public var minInterval: SimDuration
  /// Days from the start with a larger allowance ([D] "a learning period"; length and size [assumption]).
  public var learningDays: Int
  /// Allowance multiplier during the learning period ([assumption]).
  public var learningFactor: Double
  /// No limits, as when attached to Xcode's debugger [D]: nothing is withheld; spending is still tracked.
  public var debug: Bool

  public init(
    minPerDay: Double = 40, maxPerDay: Double = 70, engagedViewsPerDay: Double = 24,
    refill: BudgetRefill = .rolling24h, minInterval: SimDuration = .minutes(5), learningDays: Int = 0,
    learningFactor: Double = 1.5, debug: Bool = false
  ) {
    self.minPerDay = minPerDay
    self.maxPerDay = maxPerDay
    self.engagedViewsPerDay = engagedViewsPerDay
    self.refill = refill
    self.minInterval = minInterval
    self.learningDays = learningDays
    self.learningFactor = learningFactor
    self.debug = debug
  }
}
