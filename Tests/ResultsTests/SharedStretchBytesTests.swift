import SimulationEngine
import Testing

@testable import Results

/// A shared moment that crosses a fit's block boundary (the dyadic fit's stretches are 8,192 s long, so a
/// response at 8,190 s always does) is laid once, in both the requests' and the bytes' models.
@Suite("Shared stretches across blocks")
struct SharedStretchBytesTests {
  @Test("a response across 8,192 s: every second once, bytes a thousand times the requests")
  func acrossBlocks() {
    let seconds = 3 * 8_192
    var counts = [UInt32](repeating: 0, count: seconds)
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 5, replication: 0, entity: 0, stream: 1))
    var time = 0.0
    while true {
      time += stream.exponential(mean: 0.5)
      guard Int(time) < seconds else { break }
      counts[Int(time)] += 1
    }
    // A response of 12 seconds that decays, from 8,186 s: it crosses 8,192 s.
    for (offset, extra) in [120, 110, 100, 95, 90, 85, 80, 70, 60, 55, 50, 45].enumerated() {
      counts[8_186 + offset] += UInt32(extra)
    }
    let estimate = counts.withUnsafeBufferPointer { SampledLoadEstimate($0, scale: 10) }
    #expect(estimate.sharedStretches.contains { $0.contains(8_191) && $0.contains(8_192) })
    // Every request is 1,000 bytes: the bytes are the requests' counts times 1,000, block by block.
    var totals: [UInt64] = []
    for block in estimate.blocks {
      let range = block.start..<(block.start + block.seconds)
      totals.append(
        range.reduce(UInt64(0)) { sum, second in
          estimate.sharedStretches.contains { $0.contains(second) } ? sum : sum + UInt64(counts[second]) * 1_000
        })
    }
    let shared = estimate.sharedStretches.map { $0.reduce(UInt64(0)) { $0 + UInt64(counts[$1]) * 1_000 } }
    let bytes = estimate.peakBytes(
      SampledBytes(
        blockTotals: totals, shared: shared, dispersion: 1_000 * estimate.dispersion, largestResponse: 1_000,
        excesses: []))
    // The bytes' model is the requests' times 1,000 (on a lattice 1,000 times coarser): their busiest
    // seconds agree to within a few percent.
    #expect(abs(bytes.value / (1_000 * estimate.peak) - 1) < 0.05, "\(bytes.value) against \(estimate.peak)")
    // The fleet's bytes in the response are its requests' times 1,000 there too.
    #expect(abs(bytes.sharedRates[0] / (1_000 * (estimate.rate(at: 8_186))) - 1) < 1e-9)
  }
}
