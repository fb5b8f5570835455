import SimulationEngine

/// One part of a fleet's devices (`run --shard K/N`): device d belongs to shard d mod N. Shards' results add
/// up, in any grouping, to the whole fleet's to the bit (every accumulator is an integer sum).
public struct FleetShard: Sendable, Equatable {
  /// K, from 0.
  public let index: Int
  /// N, at least 1.
  public let count: Int

  public init(index: Int, count: Int) {
    precondition(count > 0 && index >= 0 && index < count, "shard \(index) of \(count)")
    self.index = index
    self.count = count
  }

  /// `K/N` with 0 <= K < N; nil for anything else.
  public init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0, index >= 0, index < count
    else { return nil }
    self.init(index: index, count: count)
  }

  /// The whole fleet as one shard.
  public static let whole = FleetShard(index: 0, count: 1)

  /// Devices of a fleet of `devices` in this shard.
  public func devices(of devices: Int) -> Int { devices > index ? (devices - index - 1) / count + 1 : 0 }

  /// The fleet index of the shard's `position`-th device.
  public func device(at position: Int) -> Int { index + position * count }

  public var description: String { "\(index)/\(count)" }
}

/// One replication of a fleet shard in binary: the run's identity, the shard, the exact result and the
/// devices' figures, and an FNV-1a checksum over all of it.
public enum FleetShardResult {
  static let magic = Array("widgetsim-shard-result 1\n".utf8)

  /// Why a shard result could not be read.
  public struct Problem: Error, Sendable {
    public let reason: String
  }

  public static func encode(_ result: ReplicationResult, devices: [DeviceSummary], identity: String, shard: FleetShard)
    -> [UInt8]
  {
    var writer = BinaryWriter(magic: magic)
    writer.text(identity)
    writer.unsigned(UInt64(shard.index))
    writer.unsigned(UInt64(shard.count))
    result.encode(to: &writer)
    devices.encode(to: &writer)
    return writer.checksummedBytes
  }

  /// Reads what ``encode(_:devices:identity:shard:)`` wrote, for the run `identity` and shard `shard` of
  /// `configuration`.
  public static func decode(
    _ bytes: [UInt8], identity: String, shard: FleetShard, configuration: ScenarioConfiguration
  ) throws(Problem) -> (ReplicationResult, [DeviceSummary]) {
    var reader: BinaryReader
    do {
      reader = try BinaryReader(checksummed: bytes, magic: magic, kind: "shard result")
    } catch {
      throw Problem(reason: error.reason)
    }
    do {
      guard try reader.text() == identity, try reader.unsigned() == UInt64(shard.index),
        try reader.unsigned() == UInt64(shard.count)
      else { throw Problem(reason: "it belongs to another run or shard than its folder's shard.txt") }
      let result = try ReplicationResult(from: &reader, configuration: configuration)
      let devices = try [DeviceSummary](from: &reader)
      guard reader.isAtEnd else { throw reader.error("data after the result") }
      return (result, devices)
    } catch let problem as Problem {
      throw problem
    } catch {
      throw Problem(reason: "\(error)")
    }
  }
}
