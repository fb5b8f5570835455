import SimulationEngine

/// When the servers walk the fleet's device list to send every phone the same push: each fleet event's
/// occurrence and each push-to-start at a fixed time, from its moment for as long as `server.push_rate`
/// takes to reach every phone (one second when there is no rate: every push leaves at once).
///
/// Inside such a window the fleet's pushes per second are set by the walk, not drawn phone by phone: a
/// sample of phones sends them evenly spaced, each standing for `fleet.represents / fleet.devices` real
/// ones, so the sample's count in a second is no quasi-Poisson draw of the fleet's (see
/// ``SampledLoadEstimate``, which takes their count over the window as the fleet's, at an even pace).
/// A window's phones are on one clock: fan-outs at a local time are placed only when the fleet's clock
/// offsets are a finite list (each offset its own window).
package struct FanOutWindows {
  package struct Window: Equatable {
    /// Seconds since 00:00 UTC of the first measured day.
    let start: Double
    let end: Double
    /// The ``ServerSource`` raw values the walk sends, as bits.
    let sources: UInt16

    package init(start: Double, end: Double, sources: UInt16) {
      self.start = start
      self.end = end
      self.sources = sources
    }
  }

  let windows: [Window]

  package init(windows: [Window]) {
    self.windows = windows
  }

  /// The stretches of whole seconds within `0..<secondCount` that windows sending any of `sources` cover,
  /// ascending, cut wherever such a window starts or ends (over each stretch the same windows are under
  /// way), each with the share of its walks' pushes in each of its seconds: the time the windows spend in
  /// that second (a walk of 0.8 s from 12.9 s sends an eighth of its pushes in second 12).
  func segments(sources: [ServerSource], secondCount: Int) -> [FanOutStretch] {
    let mask = sources.reduce(UInt16(0)) { $0 | 1 << UInt16($1.rawValue) }
    let matching = windows.filter { $0.sources & mask != 0 }.sorted { $0.start < $1.start }
    // A window under way at a second started at most this long before it.
    let longest = matching.reduce(0.0) { Swift.max($0, $1.end - $1.start) }
    var cuts: [Int] = []
    var covered: [Range<Int>] = []
    for window in matching {
      let first = Swift.max(0, Int(window.start.rounded(.down)))
      let last = Swift.min(secondCount, Int(window.end.rounded(.up)))
      guard first < last else { continue }
      cuts += [first, last]
      covered.append(first..<last)
    }
    guard !covered.isEmpty else { return [] }
    cuts = Array(Set(cuts)).sorted()
    covered.sort { $0.lowerBound < $1.lowerBound }
    var segments: [FanOutStretch] = []
    var next = 0
    var reach = Int.min
    var firstWindow = 0
    for (low, high) in zip(cuts, cuts.dropFirst()) {
      while next < covered.count && covered[next].lowerBound <= low {
        reach = Swift.max(reach, covered[next].upperBound)
        next += 1
      }
      guard reach > low else { continue }
      // Windows that started more than the longest before this segment have ended: none later needs them.
      while firstWindow < matching.count && matching[firstWindow].start < Double(low) - longest - 1 {
        firstWindow += 1
      }
      var weights = Array(repeating: 0.0, count: high - low)
      var index = firstWindow
      while index < matching.count && matching[index].start < Double(high) {
        let window = matching[index]
        for second in low..<high {
          let overlap =
            Swift.min(window.end, Double(second + 1)) - Swift.max(window.start, Double(second))
          if overlap > 0 { weights[second - low] += overlap }
        }
        index += 1
      }
      let sum = weights.reduce(0, +)
      segments.append(
        FanOutStretch(
          seconds: low..<high,
          weights: sum > 0 ? weights.map { $0 / sum } : weights.map { _ in 1 / Double(high - low) }))
    }
    return segments
  }
}

/// Whole seconds in which the servers walk the fleet, and the share of the walks' pushes in each.
package struct FanOutStretch: Equatable {
  let seconds: Range<Int>
  /// Per second of ``seconds``; they add up to 1.
  let weights: [Double]
}
