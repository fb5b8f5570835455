/// Requests kept across a fleet thread's devices and added in one batch, grouped by blocks of seconds.
///
/// A device's requests land all over the run's seconds (51 MB of per-second counts and bytes for 31 days):
/// added a device at a time, nearly every request waits for its own cache miss. Kept across devices (a fleet
/// thread's aggregate, where every day is open from the start) and grouped by block of UTC seconds, a batch
/// of half a million requests walks the per-minute and per-second arrays block by block, in order, each
/// block's cells (a few tens of kilobytes) staying in cache while its requests are added. Grouped in place:
/// the batch needs no second buffer as large as itself. Sums of integers do not depend on order: the counts
/// come out exactly as added one by one.
@usableFromInline package struct RequestBatch: Sendable {
  /// Requests a batch holds before it is added (24 bytes each: 12.6 MB a thread).
  @usableFromInline static let limit = 1 << 19
  /// Device-days a fleet thread runs at the least for its requests to be batched: about a full batch at a
  /// hundred requests a phone-day. A smaller fleet's seconds stay in the caches, and grouping would only add
  /// work (the fleet benchmark, 200 phones for 7 days, ran 5% slower batched).
  package static let minimumDeviceDays = 5_000
  /// Bits of a request's second that choose its block (the highest ones): at most 2^11 blocks.
  static let blockBits = 11

  /// By block: where its next request goes, and where its part of the batch ends (kept between batches).
  private var next = [Int](repeating: 0, count: 1 << RequestBatch.blockBits)
  private var ends = [Int](repeating: 0, count: 1 << RequestBatch.blockBits)

  /// Reorders `requests` in place so that their seconds since `firstMicros` (UTC) fall in blocks of
  /// ascending order, a block being the seconds that share their highest ``blockBits`` bits; seconds before
  /// it count as 0, seconds at or past `secondCount` as the last (they are dropped when added). Within a
  /// block, any order. One counting pass, then each request swapped straight into its block's part.
  mutating func groupBySecond(_ requests: inout [PendingRequest], firstMicros: Int64, secondCount: Int) {
    let count = requests.count
    guard count > 1, secondCount > 1 else { return }
    let last = Int64(secondCount - 1)
    let keyBits = Int.bitWidth - (secondCount - 1).leadingZeroBitCount
    let shift = Swift.max(0, keyBits - RequestBatch.blockBits)
    let blocks = Int(last >> Int64(shift)) + 1
    requests.withUnsafeMutableBufferPointer { requests in
      next.withUnsafeMutableBufferPointer { next in
        ends.withUnsafeMutableBufferPointer { ends in
          @inline(__always) func block(_ request: PendingRequest) -> Int {
            Int(Swift.min(Swift.max((request.utcMicros - firstMicros) / 1_000_000, 0), last) >> Int64(shift))
          }
          for index in 0..<blocks { ends[index] = 0 }
          for request in requests { ends[block(request)] += 1 }
          var start = 0
          for index in 0..<blocks {
            next[index] = start
            start += ends[index]
            ends[index] = start
          }
          // Each block's part is filled from its front: a request out of place is swapped into the part of
          // its block, and the one it displaces is placed next, until one belongs where the run began.
          for index in 0..<blocks {
            while next[index] < ends[index] {
              var moving = requests[next[index]]
              var target = block(moving)
              while target != index {
                swap(&moving, &requests[next[target]])
                next[target] += 1
                target = block(moving)
              }
              requests[next[index]] = moving
              next[index] += 1
            }
          }
        }
      }
    }
  }
}

extension ServerLoad {
  /// From now on requests are kept across devices and added in grouped batches (a fleet thread's aggregate,
  /// every minute of which is open already).
  package mutating func startBatching() {
    precondition(pending.isEmpty, "requests not yet applied")
    batch = RequestBatch()
    pending.reserveCapacity(RequestBatch.limit)
  }

  /// Adds the last batch and lets the batch's memory go; requests are added a device (and a day) at a time
  /// again.
  package mutating func endBatching() {
    applyPending()
    batch = nil
    pending = []
  }
}
