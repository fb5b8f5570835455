import Testing

@testable import SimulationEngine
@testable import Statistics

#if canImport(Glibc)
  import Glibc
#endif

/// Seconds that many phones shared, found in a count series: none in counts of independent phones (however
/// they cluster or drift), every planted one, and the dispersion of the rest.
@Suite("Shared seconds in a count series")
struct SharedSecondsTests {
  /// A day of a drifting Poisson rate around 3 a second.
  static func day(seed: UInt64, clusters: UInt32 = 1) -> [UInt32] {
    PerSecondLoadTests.poissonCounts(seconds: 86_400, peak: 5, clusters: clusters, seed: seed) { second in
      3 + 1.5 * sin(Double(second) / 9_000)
    }
  }

  @Test("independent phones: no second is shared, clustered or not, over 20 days of seconds", arguments: [1, 4])
  func noneByChance(_ clusters: UInt32) {
    // The false-alarm rate is 1e-9 a second: over 1.7 million seconds a false alarm has a chance of 0.2%.
    for seed in UInt64(1)...20 {
      let counts = SharedSecondsTests.day(seed: seed + 100 * UInt64(clusters), clusters: clusters)
      let (shared, dispersion) = counts.withUnsafeBufferPointer { SharedSeconds.find($0, skipped: nil) }
      #expect(shared.isEmpty, "seed \(seed): \(shared.prefix(5).map { ($0, counts[$0]) })")
      // The successive-difference dispersion has a relative standard error of about 0.5% here.
      #expect(abs(dispersion - Double(clusters)) < 0.05 * Double(clusters), "\(dispersion)")
    }
  }

  @Test("planted moments are found, every one, and leave the dispersion of the rest")
  func plantedMoments() {
    var counts = SharedSecondsTests.day(seed: 7)
    // Every quarter hour a moment of 40 to 400 extra requests: over the background's 3 a second, each is
    // beyond the false-alarm rate; with them in, the series' own dispersion is over 15.
    let planted = Array(stride(from: 450, to: 86_400, by: 900))
    for (index, second) in planted.enumerated() { counts[second] += UInt32(40 + (index * 37) % 360) }
    let raw = counts.withUnsafeBufferPointer { DyadicRateFit.dispersion($0) }
    #expect(raw > 15, "\(raw)")
    let (shared, dispersion) = counts.withUnsafeBufferPointer { SharedSeconds.find($0, skipped: nil) }
    #expect(Set(planted).isSubset(of: shared))
    // A moment's edge joins it when beyond its background's 99th percentile: of 192 neighbours, about 2
    // by chance; 6 is past the 99.5th percentile of that binomial count.
    let extra = Set(shared).subtracting(planted)
    #expect(extra.allSatisfy { planted.contains($0 - 1) || planted.contains($0 + 1) }, "\(extra.sorted())")
    #expect(extra.count <= 6, "\(extra.sorted())")
    #expect(dispersion < 1.05, "\(dispersion)")
  }

  @Test("a second the scenario names needs less: found there, not elsewhere")
  func namedSeconds() {
    var counts = SharedSecondsTests.day(seed: 8)
    // 20 requests where the rate is 4.46 (3 + 1.5 sin(12,000 / 9,000)), 17 where it is 3.56: Poisson tails
    // of 6e-8 and 2e-7 (2e-8 to 6e-7 over the local mean's own error), between the named bar (1e-6) and
    // the unnamed one (1e-9).
    let (named, unnamed) = (12_000, 60_000)
    counts[named] = 20
    counts[unnamed] = 17
    let (shared, _) = counts.withUnsafeBufferPointer { SharedSeconds.find($0, skipped: nil) { $0 == named } }
    #expect(shared == [named])
    let (alone, _) = counts.withUnsafeBufferPointer { SharedSeconds.find($0, skipped: nil) }
    #expect(alone.isEmpty)
  }

  @Test("skipped seconds are never shared; runs of shared seconds become stretches of like counts")
  func skippedAndStretches() {
    var counts = SharedSecondsTests.day(seed: 9)
    // A response that decays: 8 seconds of 300, then 8 of 100 (each far above the background).
    let response = 40_000..<40_016
    for second in response { counts[second] += second < 40_008 ? 300 : 100 }
    counts[70_000] += 500
    var skipped = [Bool](repeating: false, count: counts.count)
    skipped[70_000] = true
    let (shared, dispersion) = skipped.withUnsafeBufferPointer { marks in
      counts.withUnsafeBufferPointer { SharedSeconds.find($0, skipped: marks) }
    }
    #expect(shared == Array(response))
    let stretches = counts.withUnsafeBufferPointer {
      SharedSeconds.stretches(shared, counts: $0, dispersion: dispersion)
    }
    #expect(stretches == [40_000..<40_008, 40_008..<40_016])
  }
}
