/// ``SuccessiveDifferences`` over a count series whose pairs touching a marked second are left out, held as
/// whole numbers so that marking or unmarking a few seconds updates it without a pass over the series.
///
/// Its dispersion is ``DyadicRateFit/dispersion(_:skipped:)``'s to the last bit: a squared difference of
/// counts below `2^26` is a whole number a `Double` holds exactly, and so is every partial sum below `2^53`,
/// so the floating-point sums there are these whole numbers, whatever their order. A series whose sums could
/// pass that (counts in the tens of thousands a second over weeks) is read through that function instead.
struct MarkedDifferences {
  /// The squared differences and the later counts of the pairs left in.
  private var squares: UInt64 = 0
  private var sum: UInt64 = 0
  /// Whether no sum can wrap around: the counts' largest square times the seconds is below `2^64`.
  private let isBounded: Bool

  /// The sums over `counts` with `marks` set (one mark a second); `unmarked` says none is.
  init(_ counts: UnsafeBufferPointer<UInt32>, marks: UnsafeBufferPointer<Bool>, unmarked: Bool) {
    precondition(marks.count == counts.count, "a mark for every second")
    var most: UInt32 = 0
    if !counts.isEmpty, let values = counts.baseAddress, let marked = marks.baseAddress {
      // Raw pointers, bounds checked above. With no mark none is read; else a pair left out adds zeros
      // rather than branching.
      most = values[0]
      if unmarked {
        for second in 1..<counts.count {
          let (count, previous) = (values[second], values[second - 1])
          most = Swift.max(most, count)
          let difference = Int64(count) - Int64(previous)
          squares &+= UInt64(bitPattern: difference &* difference)
          sum &+= UInt64(count)
        }
      } else {
        for second in 1..<counts.count {
          let (count, previous) = (values[second], values[second - 1])
          most = Swift.max(most, count)
          let difference = Int64(count) - Int64(previous)
          let left: UInt64 = marked[second] || marked[second - 1] ? 0 : 1
          squares &+= left &* UInt64(bitPattern: difference &* difference)
          sum &+= left &* UInt64(count)
        }
      }
    }
    let largest = Double(most)
    isBounded = largest < 0x1p26 && largest * largest * Double(counts.count) < 0x1p63
  }

  /// The pair that ends at `second` (after the first), if neither of its seconds is marked.
  @inline(__always)
  private func pair(_ second: Int, _ counts: UnsafeBufferPointer<UInt32>, _ marks: UnsafeBufferPointer<Bool>)
    -> (square: UInt64, count: UInt64)?
  {
    guard !(marks[second] || marks[second - 1]) else { return nil }
    let (count, previous) = (UInt64(counts[second]), UInt64(counts[second - 1]))
    let difference = count > previous ? count - previous : previous - count
    return (difference * difference, count)
  }

  @inline(__always)
  private mutating func add(_ second: Int, _ counts: UnsafeBufferPointer<UInt32>, _ marks: UnsafeBufferPointer<Bool>) {
    guard let pair = pair(second, counts, marks) else { return }
    squares &+= pair.square
    sum &+= pair.count
  }

  @inline(__always)
  private mutating func remove(
    _ second: Int, _ counts: UnsafeBufferPointer<UInt32>, _ marks: UnsafeBufferPointer<Bool>
  ) {
    guard let pair = pair(second, counts, marks) else { return }
    squares &-= pair.square
    sum &-= pair.count
  }

  /// Unmarks the seconds `old` and marks the seconds `new` (each ascending) in `marks`, and the sums with them.
  mutating func remark(
    leaving old: [Int], taking new: [Int], counts: UnsafeBufferPointer<UInt32>, marks: UnsafeMutableBufferPointer<Bool>
  ) {
    // The pairs that end at a second of either list or just after it, each once, ascending.
    var pairs: [Int] = []
    pairs.reserveCapacity(2 * (old.count + new.count))
    var (nextOld, nextNew) = (0, 0)
    while nextOld < old.count || nextNew < new.count {
      let second: Int
      if nextNew == new.count || (nextOld < old.count && old[nextOld] < new[nextNew]) {
        second = old[nextOld]
        nextOld += 1
      } else {
        second = new[nextNew]
        nextNew += 1
      }
      if second > 0 && (pairs.last ?? 0) < second { pairs.append(second) }
      if second + 1 < counts.count && (pairs.last ?? 0) < second + 1 { pairs.append(second + 1) }
    }
    if isBounded { for end in pairs { remove(end, counts, UnsafeBufferPointer(marks)) } }
    for second in old { marks[second] = false }
    for second in new { marks[second] = true }
    if isBounded { for end in pairs { add(end, counts, UnsafeBufferPointer(marks)) } }
  }

  /// ``DyadicRateFit/dispersion(_:skipped:)`` of `counts` with the `marks` these sums were kept with.
  func dispersion(_ counts: UnsafeBufferPointer<UInt32>, marks: UnsafeBufferPointer<Bool>) -> Double {
    guard isBounded, squares <= 1 << 53, sum <= 1 << 53 else { return DyadicRateFit.dispersion(counts, skipped: marks) }
    guard counts.count > 1, sum > 0 else { return 1 }
    return Swift.max(1, Double(squares) / (2 * Double(sum)))
  }
}
