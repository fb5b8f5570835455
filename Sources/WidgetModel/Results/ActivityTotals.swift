import SimulationEngine

/// How a Live Activity start attempt ended, as activities.csv names it.
public enum ActivityEnding: Int, CaseIterable, Sendable {
  case app, push, system, running, rejectedCap, rejectedPushBudget

  public var name: String {
    switch self {
    case .app: "app"
    case .push: "push"
    case .system: "system"
    case .running: "running"
    case .rejectedCap: "rejected_cap"
    case .rejectedPushBudget: "rejected_push_budget"
    }
  }
}

/// Live Activity attempts of one kind that ended one way, summed (over a device's attempts or a fleet's).
public struct ActivityTotals: Sendable {
  public private(set) var attempts = 0
  public private(set) var updatesSent = 0
  public private(set) var updatesDelivered = 0
  public private(set) var updatesThrottled = 0
  public private(set) var updatesSuperseded = 0
  public private(set) var updatesJetsam = 0
  var activeMicros: Int64 = 0
  var lockScreenMicros: Int64 = 0

  public init() {}

  mutating func add(_ record: ActivityRecord, simulationEnd end: SimTime) {
    attempts += 1
    updatesSent += record.updatesSent
    updatesDelivered += record.updatesDelivered
    updatesThrottled += record.updatesThrottled
    updatesSuperseded += record.updatesSuperseded
    updatesJetsam += record.updatesJetsam
    activeMicros += Int64((record.activeSeconds(simulationEnd: end) * 1e6).rounded())
    lockScreenMicros += Int64((record.lockScreenSeconds(simulationEnd: end) * 1e6).rounded())
  }

  public mutating func merge(_ other: ActivityTotals) {
    attempts += other.attempts
    updatesSent += other.updatesSent
    updatesDelivered += other.updatesDelivered
    updatesThrottled += other.updatesThrottled
    updatesSuperseded += other.updatesSuperseded
    updatesJetsam += other.updatesJetsam
    activeMicros += other.activeMicros
    lockScreenMicros += other.lockScreenMicros
  }

  public var activeSeconds: Double { Double(activeMicros) / 1e6 }
  public var lockScreenSeconds: Double { Double(lockScreenMicros) / 1e6 }
}

extension ReplicationResult {
  /// The totals of one kind of Live Activity and one ending.
  public func activityTotals(kind: Int, ending: ActivityEnding) -> ActivityTotals {
    activityTotals[kind * ActivityEnding.allCases.count + ending.rawValue]
  }
}
