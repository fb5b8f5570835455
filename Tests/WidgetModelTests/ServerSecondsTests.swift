import SimulationEngine
import Testing

@testable import WidgetModel

/// The per-second load: compact counts stay exact past their cell size, and the provisioning figures equal
/// the ones computed from the whole series.
@Suite("Per-second server load")
struct ServerSecondsTests {
  @Test("compact counts are exact past 254 per cell, through merges and a dropped start")
  func compactCounts() {
    var counts = CompactCounts<UInt8>(count: 10)
    var expected = Array(repeating: UInt64(0), count: 10)
    var other = CompactCounts<UInt8>(count: 10)
    var otherExpected = Array(repeating: UInt64(0), count: 10)
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 5, replication: 0, entity: 0, stream: 1))
    for _ in 0..<5_000 {
      let index = Int(stream.uniform() * 10)
      let amount = UInt64(stream.uniform() * 3)
      if stream.bernoulli(0.5) {
        counts.add(amount, at: index)
        expected[index] += amount
      } else {
        other.add(amount, at: index)
        otherExpected[index] += amount
      }
    }
    #expect((0..<10).map { counts[$0] } == expected)
    #expect(expected.contains { $0 > 255 })
    counts.merge(other)
    #expect((0..<10).map { counts[$0] } == zip(expected, otherExpected).map { $0 + $1 })
    counts.dropFirst(4)
    #expect((0..<6).map { counts[$0] } == zip(expected, otherExpected).map { $0 + $1 }.suffix(6))
  }

  @Test("adding a batch gives the counts of adding its entries one by one, across the cells' limit")
  func batchAddsMatchSingleAdds() {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 6, replication: 0, entity: 0, stream: 1))
    // Batches with skipped entries, amounts that pass the cell's limit at once or cell by cell.
    let entries: [(index: Int, amount: UInt64)?] = (0..<4_000).map { _ in
      stream.bernoulli(0.1)
        ? nil : (Int(stream.uniform() * 6), stream.bernoulli(0.01) ? 300 : UInt64(stream.uniform() * 4))
    }
    var batched = CompactCounts<UInt8>(count: 6)
    var single = CompactCounts<UInt8>(count: 6)
    for batch in stride(from: 0, to: entries.count, by: 500) {
      batched.addEach(500) { entries[batch + $0] }
      for entry in entries[batch..<(batch + 500)] {
        if let entry { single.add(entry.amount, at: entry.index) }
      }
    }
    let expected = (0..<6).map { index in entries.reduce(UInt64(0)) { $0 + ($1?.index == index ? $1!.amount : 0) } }
    #expect((0..<6).map { batched[$0] } == expected)
    #expect((0..<6).map { single[$0] } == expected)
    #expect(expected.allSatisfy { $0 > 255 })
  }

  @Test("mean, p99 and peak from the histogram equal those of the sorted series")
  func figuresMatchSortedSeries() {
    var seconds = ServerSeconds(days: 1)
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 9, replication: 0, entity: 0, stream: 2))
    var series = Array(repeating: 0.0, count: 86_400)
    for _ in 0..<200_000 {
      // A skewed load: most requests in the first hour, a burst of 600 in second 50,000.
      let second = stream.bernoulli(0.7) ? Int(stream.uniform() * 3_600) : Int(stream.uniform() * 86_400)
      seconds.record(.widgetFetch, bytes: 1_000, at: SimTime(microseconds: Int64(second) * 1_000_000), offset: .zero)
      series[second] += 1
    }
    for _ in 0..<600 {
      seconds.record(.widgetFetch, bytes: 1_000, at: SimTime(microseconds: 50_000 * 1_000_000), offset: .zero)
      series[50_000] += 1
    }
    let figures = seconds.provisioning(scale: 10)
    let fetch = figures.first { $0.stream == "widget_fetch" }!
    let sorted = series.sorted()
    let rank = 0.99 * Double(sorted.count - 1)
    let lower = Int(rank)
    let p99 = sorted[lower] + (rank - Double(lower)) * (sorted[lower + 1] - sorted[lower])
    #expect(abs(fetch.p99PerSecond - p99 * 10) < 1e-9)
    #expect(fetch.peakPerSecond == sorted.last! * 10 && fetch.peakSecond == 50_000)
    #expect(abs(fetch.meanPerSecond - 200_600 * 10 / 86_400) < 1e-9)
    #expect(fetch.peakBytesPerSecond == sorted.last! * 10 * 1_000)
    #expect(figures.first?.stream == "total" && figures.first?.peakPerSecond == fetch.peakPerSecond)
    // App fetches count once in the total, under their channel and under app_fetch.
    seconds.record(.appFetchForeground, bytes: 0, at: SimTime(microseconds: 50_000 * 1_000_000), offset: .zero)
    seconds.record(.appFetchSilentPush, bytes: 0, at: SimTime(microseconds: 50_000 * 1_000_000), offset: .zero)
    // A broadcast (the fleet's own request, not scaled) takes the exact path for the total.
    seconds.record(.broadcast, bytes: 0, at: SimTime(microseconds: 50_000 * 1_000_000), offset: .zero)
    let more = seconds.provisioning(scale: 10)
    #expect(more.first { $0.stream == "app_fetch" }?.peakPerSecond == 20)
    #expect(more.first { $0.stream == "app_fetch_foreground" }?.peakPerSecond == 10)
    #expect(more.first?.peakPerSecond == (sorted.last! + 2) * 10 + 1)
    #expect(abs(more.first!.p99PerSecond - p99 * 10) < 1e-9)
  }
}
