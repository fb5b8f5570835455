import SimulationEngine

/// Everything one replication of one device produced, in dense arrays indexed by day, hour and instance.
public struct ReplicationResult: Sendable {
  public let replication: Int
  public let days: Int
  public let instanceCount: Int
  /// Counts by request time: see ``reloadCount(day:hour:instance:cause:outcome:)``.
  var reloadCounts: [UInt32]
  /// The same summed over the run, by `(instance * causes + cause) * outcomes + outcome`.
  var reloadTotals: [Int]
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
  /// Push counts by `(((hourIndex * pushTargetCount + target) * 2 + priorityIndex) * 4 + counter)`; target 0 is
  /// the app's widget push topic, target 1 + a the Live Activity kind a; priority index 0 is 10, 1 is 5.
  var pushCounts: [UInt32]
  /// 1 + the number of Live Activity kinds.
  public let pushTargetCount: Int
  /// Every Live Activity start attempt, in order.
  public internal(set) var activities: [ActivityRecord] = []
  /// What the user saw of each Live Activity kind at Lock Screen views.
  public internal(set) var activityStaleness: [StalenessRecorder]
  /// Joules by hour, subject (instances, then `device`, `widget_push`, Live Activity kinds) and component.
  var energy: EnergyLedger
  /// At the end of each hour: state of charge (0...1), Low Power Mode, and whether it charged in that hour.
  public internal(set) var stateOfCharge: [Double]
  public internal(set) var lowPowerMode: [Bool]
  public internal(set) var charging: [Bool]
  /// Times the battery ran empty and the device switched off.
  public internal(set) var drains = 0

  static let causeCount = ReloadCause.allCases.count
  static let outcomeCount = ReloadOutcome.allCases.count

  init(replication: Int, days: Int, instanceCount: Int, activityKinds: Int = 0) {
    self.replication = replication
    pushTargetCount = 1 + activityKinds
    pushCounts = Array(repeating: 0, count: days * 24 * (1 + activityKinds) * 2 * 4)
    activityStaleness = Array(repeating: StalenessRecorder(), count: activityKinds)
    energy = EnergyLedger(hours: days * 24, subjectCount: instanceCount + 2 + activityKinds)
    stateOfCharge = Array(repeating: 0, count: days * 24)
    lowPowerMode = Array(repeating: false, count: days * 24)
    charging = Array(repeating: false, count: days * 24)
    self.days = days
    self.instanceCount = instanceCount
    let hours = days * 24
    reloadCounts = Array(
      repeating: 0, count: hours * instanceCount * ReplicationResult.causeCount * ReplicationResult.outcomeCount)
    budgetRemaining = Array(repeating: 0, count: hours * instanceCount)
    reloadTotals = Array(
      repeating: 0, count: instanceCount * ReplicationResult.causeCount * ReplicationResult.outcomeCount)
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
    for candidate in ReloadCause.allCases where cause == nil || candidate == cause {
      for result in ReloadOutcome.allCases where outcome == nil || result == outcome {
        sum +=
          reloadTotals[
            (instance * ReplicationResult.causeCount + candidate.rawValue) * ReplicationResult.outcomeCount
              + result.rawValue]
      }
    }
    return sum
  }

  /// Energy subjects: widget instances 0..<instanceCount, then these.
  public var deviceSubject: Int { instanceCount }
  public var widgetPushSubject: Int { instanceCount + 1 }
  public func activitySubject(_ kind: Int) -> Int { instanceCount + 2 + kind }
  public var energySubjectCount: Int { energy.subjectCount }

  /// Joules of a subject's component in one hour.
  public func joules(day: Int, hour: Int, subject: Int, component: EnergyComponent) -> Double {
    energy.value(hourIndex: day * 24 + hour, subject: subject, component: component)
  }

  /// Joules of a subject over the run, for one component or all.
  public func totalJoules(subject: Int, component: EnergyComponent? = nil) -> Double {
    var sum = 0.0
    for hourIndex in 0..<(days * 24) {
      for candidate in EnergyComponent.allCases where component == nil || candidate == component {
        sum += energy.value(hourIndex: hourIndex, subject: subject, component: candidate)
      }
    }
    return sum
  }

  /// Pushes sent in that hour to a target with a priority (10 or 5), by what became of them.
  public func pushCount(day: Int, hour: Int, target: Int, priority: Int, counter: PushCounter) -> Int {
    Int(pushCounts[pushIndex(hourIndex: day * 24 + hour, target: target, priority: priority, counter: counter)])
  }

  /// Total pushes to a target (any priority) over the run.
  public func pushTotal(target: Int, counter: PushCounter) -> Int {
    var sum = 0
    for hourIndex in 0..<(days * 24) {
      for priority in [10, 5] {
        sum += Int(pushCounts[pushIndex(hourIndex: hourIndex, target: target, priority: priority, counter: counter)])
      }
    }
    return sum
  }

  func pushIndex(hourIndex: Int, target: Int, priority: Int, counter: PushCounter) -> Int {
    (((hourIndex * pushTargetCount + target) * 2 + (priority == 10 ? 0 : 1)) * 4) + counter.rawValue
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

/// What became of pushes: every push sent is counted as sent, and once more as delivered, superseded or
/// throttled (unless still pending when the simulation ends).
public enum PushCounter: Int, CaseIterable, Sendable {
  case sent
  case delivered
  /// Replaced by a newer push to the same topic before delivery (APNs keeps one), or discarded because its
  /// Live Activity ended first.
  case superseded
  /// Over the push budget: dropped.
  case throttled

  public var name: String {
    switch self {
    case .sent: "sent"
    case .delivered: "delivered"
    case .superseded: "superseded"
    case .throttled: "throttled"
    }
  }
}

/// One attempt to start a Live Activity and, if it started, its life.
public struct ActivityRecord: Sendable {
  /// Index of the Live Activity kind in the scenario.
  public let definition: Int
  /// `id#n`: the n-th start attempt of that kind.
  public let label: String
  public let startTime: SimTime
  /// Why the start was refused, if it was: `cap` (too many concurrent) or `push_budget` (push-to-start).
  public internal(set) var rejection: String?
  public internal(set) var updatesSent = 0
  public internal(set) var updatesDelivered = 0
  public internal(set) var updatesThrottled = 0
  public internal(set) var updatesSuperseded = 0
  /// Delivered updates whose rendering passed the memory ceiling (the old content stays).
  public internal(set) var updatesJetsam = 0
  /// `app`, `push`, `system`, or `running` if it was still active when the simulation ended.
  public internal(set) var endedBy = "running"
  public internal(set) var endTime: SimTime?
  /// When it left the Lock Screen; nil if it was still there at the end.
  public internal(set) var dismissTime: SimTime?

  /// Seconds active, up to `end` (the end of the simulation) when still running.
  public func activeSeconds(simulationEnd end: SimTime) -> Double {
    guard rejection == nil else { return 0 }
    return ((endTime ?? end) - startTime).seconds
  }

  /// Seconds on the Lock Screen after it ended.
  public func lockScreenSeconds(simulationEnd end: SimTime) -> Double {
    guard rejection == nil, let endTime else { return 0 }
    return ((dismissTime ?? end) - endTime).seconds
  }
}
