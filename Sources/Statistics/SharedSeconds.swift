import CGSL
import SimulationEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The seconds of a count series in which far more requests came than the seconds around them allow: moments
/// that many of the phones behind the series shared (a time every phone keeps, a fleet event's response),
/// not chance.
///
/// A sample of a fleet shows such a moment as the share of its phones that acted then, and the whole fleet
/// acts in the same share: the moment's count is the sample's scaled, not a rate to be smoothed with the
/// seconds around it. ``DyadicRateFit`` would smooth it: its quasi-Poisson weighting divides the likelihood
/// by the series' dispersion, which the moments themselves inflate by orders of magnitude.
///
/// A second is shared when its count is at least ``minimumCount`` and a quasi-Poisson count at the mean of
/// the seconds around it (``window`` each side, shared seconds left out) reaches it with probability below
/// ``falseAlarm`` (``namedFalseAlarm`` in a second the caller names: a time the scenario says phones share).
/// The dispersion is the series' own with the shared seconds left out (``DyadicRateFit/dispersion(_:skipped:)``):
/// the search starts from Poisson counts and judges every second again at the dispersion the seconds it left
/// show, until it finds the same seconds twice (or after ``rounds``).
public enum SharedSeconds {
  /// Seconds each side whose mean count is a second's background.
  public static let window = 30
  /// The chance that a second of independent phones is taken for a shared one: once in a billion seconds,
  /// so a month-long run holds none by chance.
  public static let falseAlarm = 1e-9
  /// The same in a second the scenario names as shared (about 1 in 50 of a run's seconds at most): one in a
  /// million, the same few per run.
  public static let namedFalseAlarm = 1e-6
  /// The bar for a second beside a shared one to join it: its count beyond its background's 99th percentile.
  public static let edgeAlarm = 0.01
  /// Fewest requests that make a shared second: a handful of phones.
  public static let minimumCount: UInt32 = 5
  /// Rounds of search at most.
  static let rounds = 8

  /// The shared seconds of `counts`, ascending, and the dispersion of the rest. Seconds `skipped` marks (a
  /// fan-out's walk, taken apart already) are never shared and stay out of the dispersion; `named(second)`
  /// says whether the scenario names a second as one phones share.
  public static func find(
    _ counts: UnsafeBufferPointer<UInt32>, skipped: UnsafeBufferPointer<Bool>?, named: (Int) -> Bool = { _ in false }
  ) -> (seconds: [Int], dispersion: Double) {
    GSL.configure()
    var marks = [Bool](repeating: false, count: counts.count)
    var unmarked = true
    if let skipped {
      for second in skipped.indices where skipped[second] {
        marks[second] = true
        unmarked = false
      }
    }
    return marks.withUnsafeMutableBufferPointer { marks in
      var differences = MarkedDifferences(counts, marks: UnsafeBufferPointer(marks), unmarked: unmarked)
      // The series' own dispersion counts every moment as noise, which can hide them all: the search starts
      // from Poisson counts instead, then judges every second again at the dispersion of the seconds it left,
      // until it finds the same seconds twice.
      var shared: [Int] = []
      var dispersion = 1.0
      for _ in 0..<rounds {
        let found = judge(
          counts, skipped: skipped, marks: UnsafeBufferPointer(marks), unmarked: unmarked && shared.isEmpty,
          dispersion: dispersion, named: named)
        differences.remark(leaving: shared, taking: found, counts: counts, marks: marks)
        let settled = found == shared
        shared = found
        dispersion = differences.dispersion(counts, marks: UnsafeBufferPointer(marks))
        if settled { break }
      }
      guard !shared.isEmpty else { return (shared, dispersion) }
      let edges = edges(
        shared, counts: counts, skipped: skipped, marks: UnsafeBufferPointer(marks), dispersion: dispersion)
      differences.remark(leaving: [], taking: edges, counts: counts, marks: marks)
      return ((shared + edges).sorted(), differences.dispersion(counts, marks: UnsafeBufferPointer(marks)))
    }
  }

  /// `P(N >= count)` for a quasi-Poisson count of `mean` and variance `dispersion * mean` (negative binomial
  /// above a dispersion of 1, as ``PerSecondLoadModel`` takes the fleet's counts).
  static func tail(_ count: UInt32, mean: Double, dispersion: Double) -> Double {
    guard count > 0 else { return 1 }
    // No background at all: any request is more than chance allows, but a floor keeps a lone second's
    // first requests from reading as certain.
    let mean = Swift.max(mean, 1.0 / Double(2 * window))
    guard dispersion > 1 else { return gsl_cdf_poisson_Q(count - 1, mean) }
    let size = mean / (dispersion - 1)
    return gsl_cdf_negative_binomial_Q(count - 1, 1 / dispersion, size)
  }
}

extension SharedSeconds {
  /// The penalty per block of the fit within a run of shared seconds: a split that noise alone explains
  /// gains more with probability 0.5% (half a chi-square with one degree of freedom past 4), about one run
  /// in five; the series' own `log T` would average a response that decays within seconds down to its mean.
  public static let runPenalty = 4.0

  /// The shared seconds (ascending) as stretches of equal rate: each run of consecutive shared seconds (a
  /// fleet event's response lasts seconds, a time every phone keeps one) cut where its counts change, by
  /// ``DyadicRateFit`` over the run alone at the series' `dispersion` and `penalty` (``runPenalty``). A second of a run is
  /// then taken with the seconds like it, not alone: the busiest of many seconds each counted alone would be
  /// the one its sample happened to overstate.
  public static func stretches(
    _ shared: [Int], counts: UnsafeBufferPointer<UInt32>, dispersion: Double, penalty: Double = runPenalty
  ) -> [Range<Int>] {
    var stretches: [Range<Int>] = []
    var index = 0
    while index < shared.count {
      var end = index + 1
      while end < shared.count && shared[end] == shared[end - 1] + 1 { end += 1 }
      let run = shared[index]..<(shared[end - 1] + 1)
      if run.count == 1 {
        stretches.append(run)
      } else {
        let blocks = DyadicRateFit.blocks(
          UnsafeBufferPointer(rebasing: counts[run]), dispersion: dispersion, penaltyPerBlock: penalty)
        for block in blocks {
          stretches.append((run.lowerBound + block.start)..<(run.lowerBound + block.start + block.seconds))
        }
      }
      index = end
    }
    return stretches
  }
}
