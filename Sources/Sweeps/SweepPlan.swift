import ScenarioFiles
import WidgetModel

/// The work of a sweep: every (point, replication) task, in a fixed order, and what identifies it.
public struct SweepPlan: Sendable {
  public let points: [SweepPoint]
  public let keys: [String]
  public let configurations: [ScenarioConfiguration]
  /// Whether every point uses the same streams for replication r (common random numbers).
  public let commonRandomNumbers: Bool
  /// Task t is point `tasks[t].point`, replication `tasks[t].replication`: with a selection, point p's
  /// replication r is task p x max_replications + r.
  public let tasks: [(point: Int, replication: Int)]
  /// Identifies the sweep and everything that changes its results (file text, overrides, streams, model), so
  /// a journal from a different sweep is never resumed.
  public let identity: SweepIdentity
  public var fingerprint: String { identity.fingerprint }

  public init(sweep: LoadedSweep, overrides: [String], commonRandomNumbers: Bool) {
    points = sweep.points
    keys = sweep.specification.keys
    self.commonRandomNumbers = commonRandomNumbers
    var configurations = sweep.configurations
    if !commonRandomNumbers {
      // Independent streams: each point gets its own seed (for comparison with common random numbers).
      for index in configurations.indices {
        configurations[index].seed = SweepPlan.mix(configurations[index].seed, UInt64(index))
      }
    }
    self.configurations = configurations
    var tasks: [(point: Int, replication: Int)] = []
    // With a selection, every replication up to its cap has a task number; the procedure runs those it needs.
    let cap = sweep.specification.selection?.maximumReplications
    for (point, configuration) in configurations.enumerated() {
      for replication in 0..<(cap ?? configuration.replications) { tasks.append((point, replication)) }
    }
    self.tasks = tasks
    identity = SweepIdentity(text: sweep.text, overrides: overrides, commonRandomNumbers: commonRandomNumbers)
  }

  /// Tasks of shard `index` of `count`: task t belongs to shard t mod count.
  public func tasks(shard: (index: Int, count: Int)?) -> [Int] {
    guard let shard else { return Array(tasks.indices) }
    return tasks.indices.filter { $0 % shard.count == shard.index }
  }

  static func mix(_ seed: UInt64, _ point: UInt64) -> UInt64 {
    var z = seed &+ 0x9E37_79B9_7F4A_7C15 &* (point &+ 1)
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  static func fnv1a64(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash
  }

  static func hexadecimal(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
