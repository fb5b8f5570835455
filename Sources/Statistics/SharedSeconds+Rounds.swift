extension SharedSeconds {
  /// The seconds a quasi-Poisson count at `dispersion` and at the mean of the seconds around it (``window``
  /// each side, the `marks` left out) reaches with less than the false-alarm chance, ascending; never a second
  /// `skipped` marks. The window's requests and seconds are whole numbers, so each second's mean is the one
  /// of sums over its window however they were reached.
  /// With `unmarked`, no second is marked: the window is summed without reading a mark (the common case, a
  /// series with no fan-out judged the first time).
  static func judge(
    _ counts: UnsafeBufferPointer<UInt32>, skipped: UnsafeBufferPointer<Bool>?, marks: UnsafeBufferPointer<Bool>,
    unmarked: Bool, dispersion: Double, named: (Int) -> Bool
  ) -> [Int] {
    var found: [Int] = []
    let secondCount = counts.count
    precondition(marks.count == secondCount && (skipped?.count ?? secondCount) == secondCount, "a mark a second")
    guard let values = counts.baseAddress, let marked = marks.baseAddress else { return found }
    let left = skipped?.baseAddress
    // The requests and seconds left in over the window of the second last judged, `[judged - window, judged +
    // window]`: slid on to the next second judged when it is near, summed afresh when it is far (most seconds
    // hold too few requests to be judged at all).
    var (judged, total, seconds) = (Int.min / 2, UInt64(0), 0)
    for second in 0..<secondCount {
      let count = values[second]
      guard count >= minimumCount, !(left?[second] ?? false) else { continue }
      if second - judged <= window {
        for next in (judged + 1)...second {
          let entering = next + window
          if entering < secondCount && (unmarked || !marked[entering]) {
            total += UInt64(values[entering])
            seconds += 1
          }
          let leaving = next - window - 1
          if leaving >= 0 && (unmarked || !marked[leaving]) {
            total -= UInt64(values[leaving])
            seconds -= 1
          }
        }
      } else {
        (total, seconds) = (0, 0)
        for inside in Swift.max(0, second - window)..<Swift.min(secondCount, second + window + 1)
        where unmarked || !marked[inside] {
          total += UInt64(values[inside])
          seconds += 1
        }
      }
      judged = second
      let isLeftIn = unmarked || !marked[second]
      if isShared(
        count, total: total - (isLeftIn ? UInt64(count) : 0), seconds: seconds - (isLeftIn ? 1 : 0),
        dispersion: dispersion, second: second, named: named)
      {
        found.append(second)
      }
    }
    return found
  }

  /// Whether `count`, in `second`, is more than chance allows at `dispersion` beside `total` requests over
  /// `seconds` around it.
  @inline(__always)
  private static func isShared(
    _ count: UInt32, total: UInt64, seconds: Int, dispersion: Double, second: Int, named: (Int) -> Bool
  ) -> Bool {
    // A second alone (its neighbours all shared or skipped) has no background to be judged against.
    guard seconds > 0 else { return false }
    let mean = Double(total) / Double(seconds)
    // Within four standard deviations of its mean a count is far likelier than the false-alarm rate
    // (the normal tail there is 3e-5, and Poisson and negative binomial tails are heavier): no
    // distribution function needed for the common second.
    let excess = Double(count) - mean
    guard excess > 0, excess * excess >= 16 * dispersion * Swift.max(mean, 1) else { return false }
    let chance = tail(count, mean: mean, dispersion: dispersion)
    return chance < falseAlarm || (chance < namedFalseAlarm && named(second))
  }

  /// A moment's edges: the seconds on either side of a `shared` one join it while their counts stay beyond
  /// chance at a looser bar (hysteresis, as an edge detector follows an edge it has found), so that the
  /// tail of a response is not left to the fit as short blocks of high rate, each counted alone. Returns
  /// them ascending; each is judged against the mean of the seconds around it that `marks` (the skipped and
  /// the shared ones) leaves in.
  static func edges(
    _ shared: [Int], counts: UnsafeBufferPointer<UInt32>, skipped: UnsafeBufferPointer<Bool>?,
    marks: UnsafeBufferPointer<Bool>, dispersion: Double
  ) -> [Int] {
    let secondCount = counts.count
    var edges: [Int] = []
    var isEdge = [Bool](repeating: false, count: secondCount)
    for start in shared {
      for step in [-1, 1] {
        var second = start + step
        while second >= 0 && second < secondCount && !marks[second] && !isEdge[second]
          && !(skipped?[second] ?? false)
        {
          var (total, seconds) = (UInt64(0), -1)
          for inside in Swift.max(0, second - window)..<Swift.min(secondCount, second + window + 1)
          where !marks[inside] {
            total += UInt64(counts[inside])
            seconds += 1
          }
          guard seconds > 0 else { break }
          let mean = Double(total - UInt64(counts[second])) / Double(seconds)
          guard Double(counts[second]) > mean, tail(counts[second], mean: mean, dispersion: dispersion) < edgeAlarm
          else { break }
          isEdge[second] = true
          edges.append(second)
          second += step
        }
      }
    }
    edges.sort()
    return edges
  }
}
