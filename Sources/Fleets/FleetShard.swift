import WidgetModel

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

  /// The devices of a fleet of `fleet` in this shard that worker `worker` of `workers` simulates: the
  /// shard's devices at positions `worker`, `worker + workers`, ...
  func share(worker: Int, of workers: Int, fleet: Int) -> FleetShare {
    FleetShare(first: device(at: worker), step: count * workers, end: fleet)
  }
}
