/// Where a random stream comes from: which scenario seed, replication, entity and process.
///
/// Every random process of every simulated entity draws from its own stream, so changing one widget's
/// policy never shifts the draws of the user's behaviour (common random numbers), and any device of a
/// fleet can be simulated alone, on any thread, with the same draws.
public struct StreamSeed: Hashable, Sendable, CustomStringConvertible {
  /// The scenario's `seed`.
  public var scenarioSeed: UInt64
  /// Replication number, from 0.
  public var replication: UInt64
  /// Which entity draws: a device index, or a device and widget index combined by the model.
  public var entity: UInt64
  /// Which random process of that entity (views, app opens, CPU time, ...), a constant the model assigns.
  public var stream: UInt64

  public init(scenarioSeed: UInt64, replication: UInt64 = 0, entity: UInt64 = 0, stream: UInt64 = 0) {
    self.scenarioSeed = scenarioSeed
    self.replication = replication
    self.entity = entity
    self.stream = stream
  }

  /// The 64-bit key of this stream.
  ///
  /// Mixing function (documented so other tools can reproduce it): starting from `h = 0`, each component
  /// `c` in the order scenarioSeed, replication, entity, stream is absorbed as
  /// `h = splitMix64Finalizer(h &+ 0x9E3779B97F4A7C15 ^ c)`, where the finalizer is SplitMix64's output
  /// function (Steele, Lea & Flood 2014: xor-shift 30, multiply 0xBF58476D1CE4E5B9, xor-shift 27,
  /// multiply 0x94D049BB133111EB, xor-shift 31). The finalizer is a bijection with full avalanche, so
  /// neighbouring keys (device 7 and 8, stream 2 and 3) give unrelated results.
  public var key: UInt64 {
    var hash = SplitMix64.finalize(SplitMix64.golden ^ scenarioSeed)
    hash = SplitMix64.finalize((hash &+ SplitMix64.golden) ^ replication)
    hash = SplitMix64.finalize((hash &+ SplitMix64.golden) ^ entity)
    return SplitMix64.finalize((hash &+ SplitMix64.golden) ^ stream)
  }

  public var description: String {
    "seed \(scenarioSeed) replication \(replication) entity \(entity) stream \(stream)"
  }
}

/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014):
/// used only to expand a ``StreamSeed`` key into a generator's initial state, never for simulation draws.
public struct SplitMix64: Sendable {
  /// The golden-ratio increment, 2^64 / φ.
  public static let golden: UInt64 = 0x9E37_79B9_7F4A_7C15

  private var state: UInt64

  public init(state: UInt64) {
    self.state = state
  }

  /// SplitMix64's output function: a bijective 64-bit mixer.
  @inlinable
  public static func finalize(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The next 64-bit output.
  public mutating func next() -> UInt64 {
    state &+= SplitMix64.golden
    return SplitMix64.finalize(state)
  }
}
