/// The largest single responses a sample shows: the bytes of each second that held exactly one request, of
/// which the `capacity` largest are kept, with how many there were. A second of one request shows its
/// response whole, so these are draws of a response's size, whatever the seconds around them held: the
/// tail the whole fleet's largest response is extrapolated from (``SampledLoadEstimate``, bytes).
struct LargestResponses: Sendable {
  /// Responses kept at most.
  static let capacity = 128
  /// The largest responses seen, not in order until ``largest``.
  private var kept: [Double] = []
  /// Below this a response cannot be among the largest (the smallest kept when last trimmed).
  private var floor = 0.0
  /// Single responses seen.
  private(set) var count = 0

  /// One more second that held one request, of `bytes`.
  mutating func add(_ bytes: Double) {
    count += 1
    guard bytes > floor || kept.count < LargestResponses.capacity else { return }
    kept.append(bytes)
    if kept.count >= 4 * LargestResponses.capacity { trim() }
  }

  private mutating func trim() {
    kept.sort(by: >)
    kept.removeLast(kept.count - LargestResponses.capacity)
    floor = kept.last ?? 0
  }

  /// The largest responses, largest first (at most ``capacity``).
  var largest: [Double] {
    Array(kept.sorted(by: >).prefix(LargestResponses.capacity))
  }
}
