import ResultStorage
import SimulationEngine

/// How a Live Activity start attempt ended, as activities.csv names it.
public enum ActivityEnding: Int, CaseIterable, Sendable {
  case app, push, system, running, rejectedCap, rejectedPushBudget
  /// Ended by the app to make room for a new one (`on_cap: end_oldest`).
  case replaced
  /// Refused: the device-wide maximum (`globalMaximumExceeded` [D]); the app was not in the foreground
  /// (`visibility` [D]).
  case rejectedDeviceCap
  case rejectedVisibility

  /// Whether the start was refused (it never ran).
  public var isRejection: Bool {
    switch self {
    case .rejectedCap, .rejectedPushBudget, .rejectedDeviceCap, .rejectedVisibility: true
    case .app, .push, .system, .running, .replaced: false
    }
  }

  public var name: String {
    switch self {
    case .app: "app"
    case .push: "push"
    case .system: "system"
    case .running: "running"
    case .rejectedCap: "rejected_cap"
    case .rejectedPushBudget: "rejected_push_budget"
    case .replaced: "replaced"
    case .rejectedDeviceCap: "rejected_device_cap"
    case .rejectedVisibility: "rejected_visibility"
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
  public private(set) var updatesLost = 0
  public private(set) var updatesJetsam = 0
  var activeMicros: Int64 = 0
  var lockScreenMicros: Int64 = 0

  public init() {}

  package mutating func add(_ record: ActivityRecord, simulationEnd end: SimTime) {
    attempts += 1
    updatesSent += record.updatesSent
    updatesDelivered += record.updatesDelivered
    updatesThrottled += record.updatesThrottled
    updatesSuperseded += record.updatesSuperseded
    updatesLost += record.updatesLost
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
    updatesLost += other.updatesLost
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
    activityTotals[ReplicationResult.activityEndings.index(kind, ending.rawValue)]
  }
}

/// Where the user saw a Live Activity.
public enum ActivitySurface: Int, CaseIterable, Sendable {
  case lockScreen
  case dynamicIslandCompact
  case dynamicIslandExpanded

  public var name: String {
    switch self {
    case .lockScreen: "lock_screen"
    case .dynamicIslandCompact: "dynamic_island_compact"
    case .dynamicIslandExpanded: "dynamic_island_expanded"
    }
  }

  static var count: Int { 3 }
  var isDynamicIsland: Bool { self != .lockScreen }
}

extension ReplicationResult {
  package mutating func countActivityView(kind: Int, _ surface: ActivitySurface, pastStaleDate: Bool) {
    activityViews[ReplicationResult.activityViewCells.index(kind, surface.rawValue, 0)] += 1
    if pastStaleDate { activityViews[ReplicationResult.activityViewCells.index(kind, surface.rawValue, 1)] += 1 }
  }

  /// Views of Live Activities of kind `kind` on `surface` (all surfaces when nil), and how many of them found
  /// a running activity past its stale date.
  public func activityViews(kind: Int, surface: ActivitySurface? = nil) -> (views: Int, pastStaleDate: Int) {
    var views = 0
    var stale = 0
    for candidate in ActivitySurface.allCases where surface == nil || candidate == surface {
      views += activityViews[ReplicationResult.activityViewCells.index(kind, candidate.rawValue, 0)]
      stale += activityViews[ReplicationResult.activityViewCells.index(kind, candidate.rawValue, 1)]
    }
    return (views, stale)
  }
}

/// The exact totals, for shard files.
extension ActivityTotals: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) {
    for value in [
      attempts, updatesSent, updatesDelivered, updatesThrottled, updatesSuperseded, updatesLost, updatesJetsam,
    ] {
      value.encode(to: &writer)
    }
    writer.signed(activeMicros)
    writer.signed(lockScreenMicros)
  }

  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
    self.init()
    attempts = try Int(from: &reader)
    updatesSent = try Int(from: &reader)
    updatesDelivered = try Int(from: &reader)
    updatesThrottled = try Int(from: &reader)
    updatesSuperseded = try Int(from: &reader)
    updatesLost = try Int(from: &reader)
    updatesJetsam = try Int(from: &reader)
    activeMicros = try reader.signed()
    lockScreenMicros = try reader.signed()
  }
}
