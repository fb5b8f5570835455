import SimulationEngine

/// Everything one replication of one device produced, in dense arrays indexed by day, hour and instance.
public struct ReplicationResult: Sendable {
  public let replication: Int
  public let days: Int
  public let instanceCount: Int
  /// Counts by request time: see ``reloadCount(day:hour:instance:cause:outcome:)``.
  var reloadCounts: [UInt32]
  /// Budget remaining at the end of each hour, by `(day * 24 + hour) * instances + instance`.
  var budgetRemaining: [Double]
  /// Per instance.
  public internal(set) var staleness: [StalenessRecorder]
  /// Per `day * instances + instance`: whether a request found no budget that day.
  var budgetExhausted: [Bool]
  /// Per `day * instances + instance`: hour of day (fractional) of the last reload granted from budget,
  /// or -1 when none.
  var lastBudgetGrantHour: [Double]
  /// Per instance: timeline builds, CPU seconds, network fetches and bytes fetched.
  public internal(set) var builds: [Int]
  public internal(set) var cpuSeconds: [Double]
  public internal(set) var fetches: [Int]
  public internal(set) var fetchBytes: [Double]
  /// Events the engine handled.
  public internal(set) var eventsHandled: UInt64 = 0
  /// Every reload that ran, in order, when the run was traced.
  public internal(set) var trace: [ReloadRecord]?

  static let causeCount = ReloadCause.allCases.count
  static let outcomeCount = ReloadOutcome.allCases.count

  init(replication: Int, days: Int, instanceCount: Int) {
    self.replication = replication
    self.days = days
    self.instanceCount = instanceCount
    let hours = days * 24
    reloadCounts = Array(
      repeating: 0, count: hours * instanceCount * ReplicationResult.causeCount * ReplicationResult.outcomeCount)
    budgetRemaining = Array(repeating: 0, count: hours * instanceCount)
    staleness = Array(repeating: StalenessRecorder(), count: instanceCount)
    budgetExhausted = Array(repeating: false, count: days * instanceCount)
    lastBudgetGrantHour = Array(repeating: -1, count: days * instanceCount)
    builds = Array(repeating: 0, count: instanceCount)
    cpuSeconds = Array(repeating: 0, count: instanceCount)
    fetches = Array(repeating: 0, count: instanceCount)
    fetchBytes = Array(repeating: 0, count: instanceCount)
  }

  func countIndex(hourIndex: Int, instance: Int, cause: ReloadCause, outcome: ReloadOutcome) -> Int {
    ((hourIndex * instanceCount + instance) * ReplicationResult.causeCount + cause.rawValue)
      * ReplicationResult.outcomeCount + outcome.rawValue
  }

  /// Requests made in that hour, with that cause, that ended with that outcome.
  public func reloadCount(day: Int, hour: Int, instance: Int, cause: ReloadCause, outcome: ReloadOutcome) -> Int {
    Int(reloadCounts[countIndex(hourIndex: day * 24 + hour, instance: instance, cause: cause, outcome: outcome)])
  }

  /// Total requests of the instance over the whole run matching the filters (nil: any).
  public func total(instance: Int, cause: ReloadCause? = nil, outcome: ReloadOutcome? = nil) -> Int {
    var sum = 0
    for hourIndex in 0..<(days * 24) {
      for candidate in ReloadCause.allCases where cause == nil || candidate == cause {
        for result in ReloadOutcome.allCases where outcome == nil || result == outcome {
          sum += Int(
            reloadCounts[countIndex(hourIndex: hourIndex, instance: instance, cause: candidate, outcome: result)])
        }
      }
    }
    return sum
  }

  /// Budget remaining at the end of an hour.
  public func budgetRemaining(day: Int, hour: Int, instance: Int) -> Double {
    budgetRemaining[(day * 24 + hour) * instanceCount + instance]
  }

  /// Whether some budgeted request of the instance found no budget on that day.
  public func budgetExhausted(day: Int, instance: Int) -> Bool {
    budgetExhausted[day * instanceCount + instance]
  }

  /// Hour of day (fractional) of the instance's last reload granted at once from budget that day; nil if none.
  public func lastBudgetGrantHour(day: Int, instance: Int) -> Double? {
    let value = lastBudgetGrantHour[day * instanceCount + instance]
    return value < 0 ? nil : value
  }
}

/// One reload that ran: when, for which request, of which instance, why and how it was granted.
public struct ReloadRecord: Sendable, Equatable {
  public let time: SimTime
  public let requestTime: SimTime
  public let instance: Int
  public let cause: ReloadCause
  public let outcome: ReloadOutcome
}
