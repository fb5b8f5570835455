#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stretch of seconds over which a count series is taken to have one rate: its first second, how many
/// seconds, the counts they hold, and how many of its seconds were observed (the rest left out of the fit).
public struct RateBlock: Sendable, Equatable {
  public let start: Int
  public let seconds: Int
  public let total: UInt64
  public let observed: Int

  public init(start: Int, seconds: Int, total: UInt64, observed: Int? = nil) {
    self.start = start
    self.seconds = seconds
    self.total = total
    self.observed = observed ?? seconds
  }

  /// Counts per observed second over the block.
  public var rate: Double { observed > 0 ? Double(total) / Double(observed) : 0 }
}

/// The rate over time of a series of counts per second (the requests some phones made), as a piecewise
/// constant function on a recursive dyadic partition chosen by penalised likelihood.
///
/// Kolaczyk and Nowak ("Multiscale likelihood analysis and complexity penalized estimation", Annals of
/// Statistics 32, 2004; Willett and Nowak, "Multiscale Poisson intensity and density estimation", IEEE
/// Trans. Information Theory 53, 2007): among all partitions of each stretch of ``topSeconds`` into dyadic
/// blocks, the one that maximises the (quasi-)Poisson log-likelihood of the counts, divided by the series'
/// dispersion, minus a penalty per block. A search of the dyadic tree finds it exactly: a block is kept
/// whole unless its two halves, each at their best, do better (and a block no split could improve is kept
/// without searching below it). Where the rate changes fast (an event's fan-out, a moment
/// every phone shares) the blocks stay as short as the counts show; where it drifts with the day they grow
/// to hours, so a small sample's second-to-second noise is averaged away rather than read as peaks.
///
/// The penalty `log(seconds)` a block makes a split that only noise explains rare over the whole series
/// (a split's gain in log-likelihood is half a chi-square with one degree of freedom when the halves share
/// a rate, so it passes `log n` with probability about `1 / (n sqrt(pi log n))` at each of the `2n` nodes).
public enum DyadicRateFit {
  /// Levels of the partition: a block is at most `2^levels` seconds (2 h 17 min).
  public static let levels = 13
  public static var topSeconds: Int { 1 << levels }

  /// The blocks of `counts` in order, covering every second once. `dispersion` (at least 1) is the
  /// variance over the mean of a second's count: 1 for Poisson counts, more when requests come in clusters.
  /// Seconds `skipped` marks are left out: their rate is the one of the seconds around them (a block of
  /// skipped seconds alone joins the block before it, or the first after it).
  public static func blocks(
    _ counts: UnsafeBufferPointer<UInt32>, dispersion: Double, skipped: UnsafeBufferPointer<Bool>? = nil,
    penaltyPerBlock: Double? = nil
  ) -> [RateBlock] {
    partitions(counts, dispersion: dispersion, skipped: skipped, penaltiesPerBlock: [penaltyPerBlock])[0]
  }

  /// ``blocks(_:dispersion:skipped:penaltyPerBlock:)`` for each of `penaltiesPerBlock` (nil: `log T`), from
  /// one pass of prefix sums; the partition of a penalty with a `shortestLevel` has no block shorter than
  /// `2^shortestLevel` seconds (but at the end of a stretch of ``topSeconds``).
  public static func partitions(
    _ counts: UnsafeBufferPointer<UInt32>, dispersion: Double, skipped: UnsafeBufferPointer<Bool>? = nil,
    penaltiesPerBlock: [Double?], shortestLevels: [Int]? = nil
  ) -> [[RateBlock]] {
    let secondCount = counts.count
    guard secondCount > 0 else { return penaltiesPerBlock.map { _ in [] } }
    precondition(skipped == nil || skipped!.count == secondCount, "a mark for every second")
    let penalties = penaltiesPerBlock.indices.map { index in
      (
        perBlock: (penaltiesPerBlock[index] ?? Swift.max(1, log(Double(secondCount)))) * Swift.max(1, dispersion),
        shortestLevel: shortestLevels?[index] ?? 0
      )
    }
    var search = Search()
    var partitions: [[RateBlock]] = penalties.map { _ in [] }
    var start = 0
    while start < secondCount {
      let length = Swift.min(DyadicRateFit.topSeconds, secondCount - start)
      search.fit(counts, skipped: skipped, start: start, length: length, penalties: penalties, into: &partitions)
      start += length
    }
    return skipped == nil ? partitions : partitions.map(joiningUnobserved)
  }

  /// `blocks` with each block of skipped seconds alone joined to the block before it (or the first after it).
  static func joiningUnobserved(_ blocks: [RateBlock]) -> [RateBlock] {
    var joined: [RateBlock] = []
    joined.reserveCapacity(blocks.count)
    var pending: RateBlock?
    for block in blocks {
      if block.observed == 0, let last = joined.popLast() {
        joined.append(
          RateBlock(
            start: last.start, seconds: last.seconds + block.seconds, total: last.total, observed: last.observed))
      } else if block.observed == 0 {
        pending =
          pending.map { RateBlock(start: $0.start, seconds: $0.seconds + block.seconds, total: 0, observed: 0) }
          ?? block
      } else if let first = pending {
        joined.append(
          RateBlock(
            start: first.start, seconds: first.seconds + block.seconds, total: block.total, observed: block.observed))
        pending = nil
      } else {
        joined.append(block)
      }
    }
    if let pending { joined.append(pending) }
    return joined
  }

  /// `n log n` for the small counts most blocks hold, read from a table.
  fileprivate static let smallCounts = 4_096
  fileprivate static let countLogs: [Double] = (0..<smallCounts).map { $0 > 0 ? Double($0) * log(Double($0)) : 0 }
  /// The log-likelihood of one second holding a small count, `n log n - n`, read from a table: each entry is
  /// ``Stretch/logLikelihood(_:logSeconds:)``'s expression at a `logSeconds` of 0, so the same `Double`.
  static let secondLogs: [Double] = (0..<smallCounts).map { (count: Int) -> Double in
    let total = Double(count)
    let logSeconds = 0.0
    return count > 0 ? countLogs[count] - total * logSeconds - total : 0
  }

  /// The prefix sums of one stretch, kept between stretches, from which its best partition is searched top
  /// down: a node's counts and seconds observed come from two prefix sums, and a node is kept whole without
  /// visiting its subtree when no split of it could do better.
  ///
  /// That test is exact. Any partition of a half costs at least the penalty (when it observes a second) less
  /// the log-likelihood of its finest partition (one block per second, or per shortest block a partition may
  /// have: the most any partition of it reaches, by the log-sum inequality). A node whose whole cost is below that bound for its two halves, by a margin
  /// far above rounding, is one the bottom-up pass also keeps whole, with the same cost.
  private struct Search {
    /// Per second of the stretch, from its start: the counts observed before it, the finest
    /// log-likelihood before it, the seconds skipped before it.
    var totals: [UInt64] = []
    var finest: [Double] = []
    var unseen: [Int32] = []
    /// Where a block of `2^shortestLevel` seconds ends (and at the stretch's end), the log-likelihood of
    /// those blocks before it: the most a partition with no shorter block reaches.
    var coarse: [Double] = []
    /// Per node of the dyadic tree (``Stretch/node(_:_:)``), whether its halves beat it whole.
    var splits = [Bool](repeating: false, count: 2 << DyadicRateFit.levels)

    /// Appends the best partition of `counts[start..<start + length]` at each of `penalties`, in order.
    mutating func fit(
      _ counts: UnsafeBufferPointer<UInt32>, skipped: UnsafeBufferPointer<Bool>?, start: Int, length: Int,
      penalties: [(perBlock: Double, shortestLevel: Int)], into partitions: inout [[RateBlock]]
    ) {
      if totals.count < length + 1 {
        totals = Array(repeating: 0, count: length + 1)
        finest = Array(repeating: 0, count: length + 1)
        unseen = Array(repeating: 0, count: length + 1)
        coarse = Array(repeating: 0, count: length + 1)
      }
      totals.withUnsafeMutableBufferPointer { totals in
        finest.withUnsafeMutableBufferPointer { finest in
          unseen.withUnsafeMutableBufferPointer { unseen in
            coarse.withUnsafeMutableBufferPointer { coarse in
              splits.withUnsafeMutableBufferPointer { splits in
                DyadicRateFit.countLogs.withUnsafeBufferPointer { countLogs in
                  DyadicRateFit.secondLogs.withUnsafeBufferPointer { secondLogs in
                    // Raw pointers (the stretch's bounds are checked here once): the search reads them per node.
                    precondition(start + length <= counts.count && length < totals.count, "a stretch within the series")
                    var stretch = Stretch(
                      counts: counts.baseAddress! + start, skipped: skipped.map { $0.baseAddress! + start },
                      countLogs: countLogs.baseAddress!, secondLogs: secondLogs.baseAddress!,
                      totals: totals.baseAddress!, finest: finest.baseAddress!,
                      unseen: unseen.baseAddress!, coarse: coarse.baseAddress!, splits: splits.baseAddress!,
                      start: start, length: length, penalty: penalties[0].perBlock)
                    stretch.sum()
                    for (index, penalty) in penalties.enumerated() {
                      stretch.penalty = penalty.perBlock
                      stretch.shortestLevel = penalty.shortestLevel
                      if penalty.shortestLevel > 0 { stretch.sumBlocks() }
                      _ = stretch.cost(first: 0, level: DyadicRateFit.levels)
                      stretch.blocks(first: 0, level: DyadicRateFit.levels, into: &partitions[index])
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  /// One stretch's counts and prefix sums, in hand while its partition is searched.
  private struct Stretch {
    /// `length` seconds of counts and marks, `length + 1` of prefix sums, a node of each level of splits.
    let counts: UnsafePointer<UInt32>
    let skipped: UnsafePointer<Bool>?
    let countLogs: UnsafePointer<Double>
    let secondLogs: UnsafePointer<Double>
    let totals: UnsafeMutablePointer<UInt64>
    let finest: UnsafeMutablePointer<Double>
    let unseen: UnsafeMutablePointer<Int32>
    let coarse: UnsafeMutablePointer<Double>
    let splits: UnsafeMutablePointer<Bool>
    let start: Int
    let length: Int
    var penalty: Double
    /// Blocks are at least `2^shortestLevel` seconds (but at a stretch's end).
    var shortestLevel = 0

    /// Fills the prefix sums (`unseen` holds zeros when nothing is skipped).
    func sum() {
      var total: UInt64 = 0
      var best = 0.0
      var missed: Int32 = 0
      totals[0] = 0
      finest[0] = 0
      unseen[0] = 0
      guard skipped != nil else {
        // Nothing skipped (`unseen` stays zero): the common case, without a mark to read per second.
        for second in 0..<length {
          let count = UInt64(counts[second])
          total += count
          best += secondLogLikelihood(count)
          totals[second + 1] = total
          finest[second + 1] = best
        }
        return
      }
      for second in 0..<length {
        if skipped?[second] ?? false {
          missed += 1
        } else {
          let count = UInt64(counts[second])
          total += count
          best += secondLogLikelihood(count)
        }
        totals[second + 1] = total
        finest[second + 1] = best
        unseen[second + 1] = missed
      }
    }

    /// Fills ``coarse`` for blocks of `2^shortestLevel` seconds.
    func sumBlocks() {
      let width = 1 << shortestLevel
      var best = 0.0
      coarse[0] = 0
      for first in stride(from: 0, to: length, by: width) {
        let end = Swift.min(first + width, length)
        let seen = observed(first, end)
        if seen > 0 {
          let logSeconds = seen == width ? Double(shortestLevel) * M_LN2 : log(Double(seen))
          best += logLikelihood(totals[end] - totals[first], logSeconds: logSeconds)
        }
        coarse[end] = best
      }
    }

    /// The Poisson log-likelihood of `total` counts over seconds whose log is `logSeconds`, at their own
    /// rate, up to terms every partition shares: `S log(S / L) - S`.
    @inline(__always)
    func logLikelihood(_ total: UInt64, logSeconds: Double) -> Double {
      guard total > 0 else { return 0 }
      let sLogS =
        total < UInt64(DyadicRateFit.smallCounts) ? countLogs[Int(total)] : Double(total) * log(Double(total))
      return sLogS - Double(total) * logSeconds - Double(total)
    }

    /// ``logLikelihood(_:logSeconds:)`` of one second's `count`, from ``secondLogs`` when it is small.
    @inline(__always)
    func secondLogLikelihood(_ count: UInt64) -> Double {
      count < UInt64(DyadicRateFit.smallCounts) ? secondLogs[Int(count)] : logLikelihood(count, logSeconds: 0)
    }

    /// The seconds observed in `first..<end`.
    @inline(__always)
    func observed(_ first: Int, _ end: Int) -> Int { end - first - Int(unseen[end] - unseen[first]) }

    /// The node of `level` from second `first` (a multiple of its width) in ``splits``: the root 1, the
    /// halves of node `i` at `2i` and `2i + 1`.
    @inline(__always)
    func node(_ first: Int, _ level: Int) -> Int { (1 << (DyadicRateFit.levels - level)) + (first >> level) }

    /// The cost of the best partition of the node of `level` from second `first` (the penalty per block less
    /// the log-likelihood): the node whole unless its two halves, each at their best, cost less, as
    /// ``splits`` then records. Nothing is appended while the tree is searched: ``blocks(first:level:into:)``
    /// reads the partition from ``splits`` after.
    func cost(first: Int, level: Int) -> Double {
      guard first < length else { return 0 }
      guard level > 0 else {
        guard !(skipped?[first] ?? false) else { return 0 }
        return penalty - secondLogLikelihood(UInt64(counts[first]))
      }
      let width = 1 << level
      let middle = first + width / 2
      // A node whose second half lies wholly past the end is its first half.
      if middle >= length && level > shortestLevel { return cost(first: first, level: level - 1) }
      let end = Swift.min(first + width, length)
      let seen = observed(first, end)
      let node = node(first, level)
      splits[node] = false
      guard seen > 0 else { return 0 }
      let total = totals[end] - totals[first]
      let cost =
        penalty
        - logLikelihood(total, logSeconds: seen == width ? Double(level) * M_LN2 : log(Double(seen)))
      if level <= shortestLevel { return cost }
      // The most log-likelihood a partition of the halves reaches: with blocks of a second, or of the shortest
      // level's seconds (their ends fall on this node's first second, middle and end).
      let most = shortestLevel > 0 ? coarse : finest
      let bound =
        (observed(first, middle) > 0 ? penalty : 0) + (observed(middle, end) > 0 ? penalty : 0)
        - (most[end] - most[first])
      // The margin covers the rounding of the prefix sums too, which grows with the stretch's sums so far.
      let margin = 1e-9 * (Swift.abs(cost) + Swift.abs(bound) + Swift.abs(most[end]) + Swift.abs(most[first]) + 1)
      if cost < bound - margin { return cost }
      let halves = self.cost(first: first, level: level - 1) + self.cost(first: middle, level: level - 1)
      guard halves < cost else { return cost }
      splits[node] = true
      return halves
    }

    /// Appends the partition ``cost(first:level:)`` chose for the node of `level` from second `first`.
    func blocks(first: Int, level: Int, into blocks: inout [RateBlock]) {
      guard first < length else { return }
      let width = 1 << level
      if level > 0 {
        let middle = first + width / 2
        if middle >= length && level > shortestLevel {
          return self.blocks(first: first, level: level - 1, into: &blocks)
        }
        if splits[node(first, level)] {
          self.blocks(first: first, level: level - 1, into: &blocks)
          self.blocks(first: middle, level: level - 1, into: &blocks)
          return
        }
      }
      let end = Swift.min(first + width, length)
      blocks.append(
        RateBlock(
          start: start + first, seconds: end - first, total: totals[end] - totals[first], observed: observed(first, end)
        ))
    }
  }

  /// The dispersion of `counts` (``SuccessiveDifferences``): the variance of a second's count over its mean,
  /// at least 1, where the spread around fitted blocks would count every drift within a block as noise.
  /// Pairs with a `skipped` second are left out.
  public static func dispersion(_ counts: UnsafeBufferPointer<UInt32>, skipped: UnsafeBufferPointer<Bool>? = nil)
    -> Double
  {
    var differences = SuccessiveDifferences()
    guard let skipped else {
      for count in counts { differences.add(Double(count)) }
      return differences.dispersion
    }
    for index in counts.indices {
      differences.add(Double(counts[index]), paired: index == 0 || !(skipped[index] || skipped[index - 1]))
    }
    return differences.dispersion
  }
}
