import SimulationEngine

/// A hash of one device's event trajectory: the time, kind and target of every event it handled, in
/// order. Any change in behaviour (a different draw, an event moved by a microsecond, one more reload)
/// changes it, so pinned fingerprints make behaviour changes visible (as OMNeT++'s fingerprint tests do).
/// Not cryptographic: two 64-bit multiply-xor rounds per event, cheap enough for the hot path.
public struct TrajectoryFingerprint: Sendable, Equatable {
  /// The hash so far.
  public var value: UInt64 { raw }
  @usableFromInline var raw: UInt64 = 0x6A09_E667_F3BC_C908

  public init() {}

  @inlinable
  package mutating func add(_ event: Event) {
    raw = (raw ^ UInt64(bitPattern: event.time.microseconds)) &* 0x9E37_79B9_7F4A_7C15
    raw = (raw ^ (UInt64(event.kind.rawValue) << 32 | UInt64(event.target))) &* 0xBF58_476D_1CE4_E5B9
    raw ^= raw >> 29
  }
}

/// The fingerprint of a replication: each device's trajectory mixed with its index and summed, so devices
/// folded in any order, on any number of threads, give the same value.
public struct ReplicationFingerprint: Sendable, Equatable {
  public private(set) var value: UInt64 = 0

  public init() {}

  /// A fingerprint read back from its ``hexadecimal`` form.
  public init(value: UInt64) {
    self.value = value
  }

  package mutating func add(device: Int, _ trajectory: TrajectoryFingerprint) {
    value &+= SplitMix64.finalize(trajectory.value ^ SplitMix64.finalize(UInt64(device)))
  }

  public mutating func merge(_ other: ReplicationFingerprint) {
    value &+= other.value
  }

  /// Sixteen lowercase hexadecimal digits.
  public var hexadecimal: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}

/// The fingerprint, for shard files.
extension ReplicationFingerprint: BinaryCodable {
  public func encode(to writer: inout BinaryWriter) { writer.unsigned(value) }
  public init(from reader: inout BinaryReader) throws(BinaryDecodingError) { self.init(value: try reader.unsigned()) }
}
