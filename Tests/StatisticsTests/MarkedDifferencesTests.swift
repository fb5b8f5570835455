import Testing

@testable import Statistics

/// The sums the search for shared seconds keeps as whole numbers, against the plain computations they stand
/// for: the dispersion over the seconds left in, and each second's judgement over its window.
@Suite("Shared seconds: whole-number sums against the plain ones")
struct MarkedDifferencesTests {
  /// An hour of counts around 6 a second with a burst of hundreds every 7 minutes, and seconds marked in runs.
  static func hour(seed: UInt64) -> (counts: [UInt32], marks: [Bool]) {
    var counts = PerSecondLoadTests.poissonCounts(seconds: 3_600, peak: 12, seed: seed) { second in
      6 + 4 * Double(second % 600) / 600
    }
    for second in stride(from: 200, to: 3_600, by: 420) { counts[second] += 300 }
    let marks = (0..<3_600).map { ($0 / 50 + Int(seed)) % 7 == 0 }
    return (counts, marks)
  }

  @Test("the dispersion is the successive differences' to the bit, as seconds are marked and unmarked")
  func dispersionMatches() {
    for seed in UInt64(1)...4 {
      var (counts, marks) = MarkedDifferencesTests.hour(seed: seed)
      counts.withUnsafeBufferPointer { counts in
        marks.withUnsafeMutableBufferPointer { marks in
          var differences = MarkedDifferences(counts, marks: UnsafeBufferPointer(marks), unmarked: false)
          #expect(
            differences.dispersion(counts, marks: UnsafeBufferPointer(marks))
              == DyadicRateFit.dispersion(counts, skipped: UnsafeBufferPointer(marks)))
          // Unmark some marked seconds and mark some others, twice over, with neighbours among them.
          let marked = marks.indices.filter { marks[$0] }
          let old = Array(marked.prefix(60))
          let new = [0, 1, 2, 199, 200, 201, 1_000, 3_599].filter { !marks[$0] }
          differences.remark(leaving: old, taking: new, counts: counts, marks: marks)
          #expect(old.allSatisfy { !marks[$0] } && new.allSatisfy { marks[$0] })
          let moved = differences.dispersion(counts, marks: UnsafeBufferPointer(marks))
          #expect(moved == DyadicRateFit.dispersion(counts, skipped: UnsafeBufferPointer(marks)))
          #expect(moved > 1, "\(moved)")
          differences.remark(leaving: new, taking: old, counts: counts, marks: marks)
          #expect(
            differences.dispersion(counts, marks: UnsafeBufferPointer(marks))
              == DyadicRateFit.dispersion(counts, skipped: UnsafeBufferPointer(marks)))
        }
      }
    }
  }

  /// The seconds shared at `dispersion` judged the plain way: each window summed afresh over the seconds
  /// `marks` leaves in.
  static func reference(_ counts: [UInt32], marks: [Bool], dispersion: Double) -> [Int] {
    counts.indices.filter { second in
      guard counts[second] >= SharedSeconds.minimumCount, !marks[second] else { return false }
      let window = max(0, second - SharedSeconds.window)..<min(counts.count, second + SharedSeconds.window + 1)
      let others = window.filter { $0 != second && !marks[$0] }
      guard !others.isEmpty else { return false }
      let mean = Double(others.reduce(UInt64(0)) { $0 + UInt64(counts[$1]) }) / Double(others.count)
      let excess = Double(counts[second]) - mean
      guard excess > 0, excess * excess >= 16 * dispersion * max(mean, 1) else { return false }
      return SharedSeconds.tail(counts[second], mean: mean, dispersion: dispersion) < SharedSeconds.falseAlarm
    }
  }

  @Test("each second is judged over its window as if summed afresh, marks or none", arguments: [false, true])
  func judgementMatches(_ unmarked: Bool) {
    for seed in UInt64(1)...4 {
      var (counts, marks) = MarkedDifferencesTests.hour(seed: seed)
      if unmarked { marks = marks.map { _ in false } }
      let found = counts.withUnsafeBufferPointer { counts in
        marks.withUnsafeBufferPointer { marks in
          SharedSeconds.judge(counts, skipped: marks, marks: marks, unmarked: unmarked, dispersion: 1.5) { _ in false }
        }
      }
      let expected = MarkedDifferencesTests.reference(counts, marks: marks, dispersion: 1.5)
      #expect(found == expected)
      // The bursts stand out wherever they are not marked.
      #expect(found.count >= 3, "\(found)")
    }
  }
}
