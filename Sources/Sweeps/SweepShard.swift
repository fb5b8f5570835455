/// One share of a sweep's tasks (`--shard K/N`): task t belongs to shard t mod N.
public struct SweepShard: Sendable, Equatable {
  /// K, from 0.
  public let index: Int
  /// N, at least 1.
  public let count: Int

  /// `K/N` with 0 <= K < N; nil for anything else.
  public init?(_ text: String) {
    let parts = text.split(separator: "/")
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0, index >= 0, index < count
    else { return nil }
    self.index = index
    self.count = count
  }

  /// As ``SweepPlan/tasks(shard:)`` and ``SweepRunner`` take it.
  var pair: (index: Int, count: Int) { (index, count) }
}
