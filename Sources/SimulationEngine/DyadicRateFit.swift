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
/// dispersion, minus a penalty per block. A bottom-up pass finds it exactly: a block is kept whole unless
/// its two halves, each at their best, do better. Where the rate changes fast (an event's fan-out, a moment
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
    _ counts: UnsafeBufferPointer<UInt32>, dispersion: Double, skipped: UnsafeBufferPointer<Bool>? = nil
  ) -> [RateBlock] {
    let secondCount = counts.count
    guard secondCount > 0 else { return [] }
    precondition(skipped == nil || skipped!.count == secondCount, "a mark for every second")
    let penalty = Swift.max(1, log(Double(secondCount))) * Swift.max(1, dispersion)
    var tree = Tree()
    var blocks: [RateBlock] = []
    var start = 0
    while start < secondCount {
      let length = Swift.min(DyadicRateFit.topSeconds, secondCount - start)
      tree.fit(counts, skipped: skipped, start: start, length: length, penalty: penalty)
      tree.collect(start: start, length: length, into: &blocks)
      start += length
    }
    guard skipped != nil else { return blocks }
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
  private static let smallCounts = 4_096
  private static let countLogs: [Double] = (0..<smallCounts).map { $0 > 0 ? Double($0) * log(Double($0)) : 0 }

  /// The Poisson log-likelihood of `total` counts over `seconds` seconds at their own rate, up to terms every
  /// partition shares: `S log(S / L) - S`.
  @inline(__always)
  static func logLikelihood(_ total: UInt64, seconds: Int, logSeconds: Double) -> Double {
    guard total > 0 else { return 0 }
    let sLogS = total < UInt64(smallCounts) ? countLogs[Int(total)] : Double(total) * log(Double(total))
    return sLogS - Double(total) * logSeconds - Double(total)
  }

  /// The working arrays of one stretch's partition, kept between stretches.
  private struct Tree {
    /// Per level, per node: the counts under it, the seconds under it observed, the best cost of its
    /// subtree, whether it is split.
    var totals: [[UInt64]] = []
    var observed: [[Int32]] = []
    var costs: [[Double]] = []
    var split: [[Bool]] = []

    /// Finds the best partition of `counts[start..<start + length]`.
    mutating func fit(
      _ counts: UnsafeBufferPointer<UInt32>, skipped: UnsafeBufferPointer<Bool>?, start: Int, length: Int,
      penalty: Double
    ) {
      if totals.isEmpty {
        totals = (0...DyadicRateFit.levels).map { Array(repeating: 0, count: DyadicRateFit.topSeconds >> $0) }
        observed = totals.map { Array(repeating: 0, count: $0.count) }
        costs = totals.map { Array(repeating: 0, count: $0.count) }
        split = totals.map { Array(repeating: false, count: $0.count) }
      }
      // Level 0: one second each (the stretch's last may be shorter than a power of two: its seconds past
      // the end hold nothing and count for nothing; so do skipped seconds).
      for node in 0..<DyadicRateFit.topSeconds {
        let seen = node < length && !(skipped?[start + node] ?? false)
        let total = seen ? UInt64(counts[start + node]) : 0
        totals[0][node] = total
        observed[0][node] = seen ? 1 : 0
        costs[0][node] = seen ? penalty - DyadicRateFit.logLikelihood(total, seconds: 1, logSeconds: 0) : 0
        split[0][node] = false
      }
      for level in 1...DyadicRateFit.levels {
        let width = 1 << level
        let logWidth = Double(level) * M_LN2
        for node in 0..<(DyadicRateFit.topSeconds >> level) {
          let first = node * width
          let total = totals[level - 1][2 * node] + totals[level - 1][2 * node + 1]
          let seen = observed[level - 1][2 * node] + observed[level - 1][2 * node + 1]
          totals[level][node] = total
          observed[level][node] = seen
          guard first < length else {
            costs[level][node] = 0
            split[level][node] = false
            continue
          }
          let seconds = Int(seen)
          let whole =
            seconds == 0
            ? 0
            : penalty
              - DyadicRateFit.logLikelihood(
                total, seconds: seconds, logSeconds: seconds == width ? logWidth : log(Double(seconds)))
          let halves = costs[level - 1][2 * node] + costs[level - 1][2 * node + 1]
          // A node whose second half lies wholly past the end is its first half (the second costs nothing and
          // holds no block).
          let apart = first + width / 2 >= length || halves < whole
          costs[level][node] = apart ? halves : whole
          split[level][node] = apart
        }
      }
    }

    /// Appends the blocks of the partition found by ``fit(_:start:length:penalty:)``, in order.
    func collect(start: Int, length: Int, into blocks: inout [RateBlock]) {
      var stack: [(level: Int, node: Int)] = [(DyadicRateFit.levels, 0)]
      while let (level, node) = stack.popLast() {
        let first = node << level
        guard first < length else { continue }
        if level > 0 && split[level][node] {
          stack.append((level - 1, 2 * node + 1))
          stack.append((level - 1, 2 * node))
        } else {
          let seconds = Swift.min(1 << level, length - first)
          blocks.append(
            RateBlock(
              start: start + first, seconds: seconds, total: totals[level][node],
              observed: Int(observed[level][node])))
        }
      }
    }
  }

  /// The dispersion of `counts`: the variance of a second's count over its mean, at least 1. Half the mean
  /// squared difference of adjacent seconds over the mean count (the lag-one variogram; von Neumann's
  /// successive-difference estimator of a variance): adjacent seconds share their rate, so a rate that
  /// drifts with the day adds nothing, where the spread around fitted blocks would count every drift
  /// within a block as noise.
  /// Pairs with a `skipped` second are left out.
  public static func dispersion<Count: BinaryInteger>(
    _ counts: UnsafeBufferPointer<Count>, skipped: UnsafeBufferPointer<Bool>? = nil
  ) -> Double {
    guard counts.count > 1 else { return 1 }
    var squares = 0.0
    var sum = 0.0
    var previous = Double(counts[0])
    for index in 1..<counts.count {
      let count = Double(counts[index])
      if let skipped, skipped[index] || skipped[index - 1] {
        previous = count
        continue
      }
      squares += (count - previous) * (count - previous)
      sum += count
      previous = count
    }
    guard sum > 0 else { return 1 }
    return Swift.max(1, squares / (2 * sum))
  }
}
