import Results
import SimulationEngine
import WidgetModel

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
