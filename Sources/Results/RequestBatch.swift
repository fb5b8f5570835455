/// Requests kept across a fleet thread's devices and added in one sorted batch.
///
/// A device's requests land all over the run's seconds (51 MB of per-second counts and bytes for 31 days):
/// added a device at a time, nearly every request waits for its own cache miss. Kept across devices (a fleet
/// thread's aggregate, where every day is open from the start) and sorted by UTC second, a batch of a quarter
/// of a million requests walks the per-minute and per-second arrays in order, where the memory system reads ahead.
/// Sums of integers do not depend on order: the counts come out exactly as added one by one.
@usableFromInline package struct RequestBatch: Sendable {
  /// Requests a batch holds before it is added (24 bytes each, and as much again to sort: 12.6 MB a thread).
  @usableFromInline static let limit = 1 << 18
  /// Device-days a fleet thread runs at the least for its requests to be batched: about two full batches at a
  /// hundred requests a phone-day. A smaller fleet's seconds stay in the caches, and sorting would only add
  /// work (the fleet benchmark, 200 phones for 7 days, ran 5% slower batched).
  package static let minimumDeviceDays = 5_000
  /// Bits of the key sorted in one pass.
  static let digitBits = 11

  /// The sort's second buffer, kept between batches.
  private var scratch: [PendingRequest] = []

  /// Sorts `requests` by their second since `firstMicros` (UTC), stably; seconds before it count as 0, seconds at
  /// or past `secondCount` as the last (they are dropped when added). A least-significant-digit radix sort in
  /// an even number of passes, so the sorted requests end where they started.
  mutating func sortBySecond(_ requests: inout [PendingRequest], firstMicros: Int64, secondCount: Int) {
    let count = requests.count
    guard count > 1, secondCount > 1 else { return }
    if scratch.count < count {
      scratch = Array(repeating: PendingRequest(utcMicros: 0, bytes: 0, source: 0, delivered: false), count: count)
    }
    let last = Int64(secondCount - 1)
    let keyBits = Int.bitWidth - (secondCount - 1).leadingZeroBitCount
    var passes = (keyBits + RequestBatch.digitBits - 1) / RequestBatch.digitBits
    passes += passes % 2
    let buckets = 1 << RequestBatch.digitBits
    let mask = buckets - 1
    var offsets = [Int](repeating: 0, count: buckets)
    requests.withUnsafeMutableBufferPointer { original in
      scratch.withUnsafeMutableBufferPointer { spare in
        offsets.withUnsafeMutableBufferPointer { offsets in
          var from = original
          var to = spare
          for pass in 0..<passes {
            let shift = pass * RequestBatch.digitBits
            @inline(__always) func digit(_ request: PendingRequest) -> Int {
              let second = Swift.min(Swift.max((request.utcMicros - firstMicros) / 1_000_000, 0), last)
              return Int(second) >> shift & mask
            }
            offsets.update(repeating: 0)
            for index in 0..<count { offsets[digit(from[index])] += 1 }
            var start = 0
            for bucket in 0..<buckets {
              let size = offsets[bucket]
              offsets[bucket] = start
              start += size
            }
            for index in 0..<count {
              let request = from[index]
              let bucket = digit(request)
              to[offsets[bucket]] = request
              offsets[bucket] += 1
            }
            swap(&from, &to)
          }
        }
      }
    }
  }
}

extension ServerLoad {
  /// From now on requests are kept across devices and added in sorted batches (a fleet thread's aggregate,
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
