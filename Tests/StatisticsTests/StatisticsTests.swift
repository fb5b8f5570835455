import Testing

@testable import SimulationEngine
@testable import Statistics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Statistics")
struct StatisticsTests {
  @Test("Welford mean and variance match the two-pass formulas, and merging matches adding")
  func runningStatistics() {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 11))
    let values = (0..<10_001).map { _ in 1e6 + stream.uniform() }  // large offset: where naive sums fail
    let statistics = RunningStatistics(values)
    let mean = values.reduce(0, +) / Double(values.count)
    let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
    #expect(statistics.count == values.count)
    #expect(abs(statistics.mean - mean) < 1e-9)
    #expect(abs(statistics.variance - variance) / variance < 1e-9)
    #expect(statistics.minimum == values.min())
    #expect(statistics.maximum == values.max())

    var left = RunningStatistics(values[..<3_000])
    left.merge(RunningStatistics(values[3_000...]))
    #expect(left.count == statistics.count)
    #expect(abs(left.mean - statistics.mean) < 1e-9)
    #expect(abs(left.variance - statistics.variance) / variance < 1e-9)
    #expect(left.minimum == statistics.minimum && left.maximum == statistics.maximum)

    var empty = RunningStatistics()
    empty.merge(statistics)
    #expect(empty == statistics)
    #expect(RunningStatistics([4]).variance.isNaN)
  }

  @Test("the 95% CI half-width for n = 10 equals t(0.975, 9) s / sqrt(n)")
  func confidenceIntervalForTen() throws {
    let values: [Double] = [12.1, 9.8, 11.4, 10.9, 13.2, 8.7, 10.1, 12.6, 11.8, 9.4]
    let statistics = RunningStatistics(values)
    let interval = try #require(ConfidenceInterval(statistics))
    // t(0.975, 9) = 2.2621571627409915 (tables; SciPy's t.ppf). GSL's inverse CDF is accurate to ~1e-10.
    let t = ConfidenceInterval.studentQuantile(probability: 0.975, degreesOfFreedom: 9)
    #expect(abs(t - 2.262_157_162_740_991_5) < 1e-9)
    let expected = t * statistics.standardDeviation / Double(10).squareRoot()
    #expect(abs(interval.halfWidth - expected) < 1e-12)
    #expect(interval.mean == statistics.mean)
    #expect(abs(interval.low - (statistics.mean - expected)) < 1e-12)
    #expect(interval.count == 10)
    #expect(ConfidenceInterval(RunningStatistics([1])) == nil)
  }

  @Test("95% intervals cover the true mean about 95% of the time (binomial CI over 2,000 intervals)")
  func coverage() throws {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 77))
    let distribution = try Distribution.exponential(mean: 2)
    let trials = 2_000
    var covered = 0
    for _ in 0..<trials {
      let statistics = RunningStatistics((0..<30).map { _ in distribution.sample(stream) })
      if try #require(ConfidenceInterval(statistics)).contains(2) { covered += 1 }
    }
    // Skewed data make t intervals with n = 30 slightly liberal (about 93-94% is known); allow 4 binomial
    // standard errors around 0.94.
    let rate = Double(covered) / Double(trials)
    let standardError = (0.94 * 0.06 / Double(trials)).squareRoot()
    #expect(abs(rate - 0.94) < 4 * standardError, "coverage \(rate)")
  }

  @Test("exact sample quantiles follow Hyndman-Fan definition 7")
  func sampleQuantiles() {
    let quantiles = SampleQuantiles([5, 1, 4, 2, 3, .nan])
    #expect(quantiles.count == 5)
    #expect(quantiles.quantile(0) == 1)
    #expect(quantiles.quantile(0.25) == 2)
    #expect(quantiles.median == 3)
    #expect(quantiles.quantile(0.9) == 4.6)
    #expect(quantiles.quantile(1) == 5)
    #expect(SampleQuantiles([]).median.isNaN)
  }

  @Test("the streaming sketch stays within its relative accuracy of the exact order statistic")
  func sketchAccuracy() throws {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 3))
    let distribution = try Distribution.lognormal(median: 600, sigma: 1.5)
    var values = (0..<50_000).map { _ in distribution.sample(stream) }
    values += [0, 0, 1e-12, 5e20]  // zeros and an out-of-range value
    var sketch = QuantileSketch(relativeAccuracy: 0.01)
    for value in values { sketch.add(value) }
    let sorted = values.sorted()
    for p in [0.0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999] {
      let exact = sorted[Int((p * Double(sorted.count - 1)).rounded(.down))]
      let estimate = sketch.quantile(p)
      if exact <= 1e-9 {
        #expect(estimate == 0)
      } else {
        #expect(abs(estimate - exact) <= 0.01 * exact * (1 + 1e-12), "p\(p): \(estimate) vs \(exact)")
      }
    }
    #expect(sketch.count == UInt64(values.count))
    #expect(sketch.counts.count < 5_000)
  }

  @Test("merging sketches gives the same result in any order, equal to one sketch of everything")
  func sketchMerge() throws {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 4))
    let distribution = try Distribution.exponential(mean: 30)
    let parts = (0..<5).map { part in
      var sketch = QuantileSketch()
      for _ in 0..<(1_000 * (part + 1)) { sketch.add(distribution.sample(stream) * Double(part + 1)) }
      return sketch
    }
    var forward = QuantileSketch()
    for part in parts { forward.merge(part) }
    var backward = QuantileSketch()
    for part in parts.reversed() { backward.merge(part) }
    #expect(forward.count == backward.count)
    for p in [0.1, 0.5, 0.95, 0.99] {
      #expect(forward.quantile(p) == backward.quantile(p))
    }
    #expect(QuantileSketch().quantile(0.5).isNaN)
  }

  @Test("a merged sketch is the very sketch of every value added to one: the same buckets and range")
  func sketchMergeIsExact() {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 5))
    // Ranges below, inside, above and around one another; an empty part; a part of zeros only.
    let scales = [1.0, 0.001, 1_000, 30, 1e6]
    var values: [Double] = []
    var direct = QuantileSketch()
    var merged = QuantileSketch()
    for (part, scale) in scales.enumerated() {
      var sketch = QuantileSketch()
      for _ in 0..<(200 * part) {
        let value = stream.uniform() * scale
        sketch.add(value)
        direct.add(value)
        values.append(value)
      }
      merged.merge(sketch)
      #expect(merged == direct, "after part \(part)")
    }
    var zeros = QuantileSketch()
    zeros.add(0, times: 3)
    direct.add(0, times: 3)
    values += [0, 0, 0]
    merged.merge(zeros)
    merged.merge(QuantileSketch())
    #expect(merged == direct)
    // A wide sketch into a narrow one (past both its ends).
    var narrow = QuantileSketch()
    var narrowDirect = QuantileSketch()
    for value in [5.0, 6, 7] {
      narrow.add(value)
      narrowDirect.add(value)
    }
    narrow.merge(direct)
    for value in values { narrowDirect.add(value) }
    #expect(narrow == narrowDirect && narrow.counts.count > 1_000)
    // A sketch into itself: every bucket doubled, the range kept.
    var doubled = direct
    doubled.merge(direct)
    var twice = direct
    for value in values { twice.add(value) }
    #expect(doubled == twice)
  }

  @Test("the tabulated buckets of the default sketch are the logarithm's, at every bound and across the range")
  func sketchBucketTable() {
    let bounds = SketchBucketBounds.standard
    let logGamma = QuantileSketch().logGamma
    func byLog(_ value: Double) -> Int {
      QuantileSketch.index(of: min(value, QuantileSketch.largestTracked), logGamma: logGamma)
    }
    func byTable(_ value: Double) -> Int? { QuantileSketch().bucket(of: value).index }
    #expect(bounds.lastIndex - bounds.firstIndex > 5_000)
    // Each bound is in its bucket and the double below it is not: the table is the step function itself.
    var mismatches = 0
    for index in bounds.firstIndex + 1...bounds.lastIndex {
      let bound = bounds.lowestValue(ofBucket: index)
      if byLog(bound) != index || byLog(bound.nextDown) != index - 1 { mismatches += 1 }
      if byTable(bound) != index || byTable(bound.nextDown) != index - 1 { mismatches += 1 }
      if byTable(bound.nextUp) != byLog(bound.nextUp) { mismatches += 1 }
    }
    #expect(mismatches == 0)
    // Values spread over the whole tracked range (log-uniform), and staleness-like seconds.
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 11))
    for _ in 0..<200_000 {
      let wide = exp(log(1e-9) + stream.uniform() * (log(1e16) - log(1e-9)))
      let seconds = stream.uniform() * 86_400
      if wide > QuantileSketch.zeroThreshold && byTable(wide) != byLog(wide) { mismatches += 1 }
      if seconds > QuantileSketch.zeroThreshold && byTable(seconds) != byLog(seconds) { mismatches += 1 }
    }
    #expect(mismatches == 0)
    // The edges: just above the zero threshold, powers of two (where look-up cells start), the largest tracked
    // value and what lies beyond it.
    let edges =
      [QuantileSketch.zeroThreshold.nextUp, 1, 1e15, 1e15.nextDown, 1e15.nextUp, 1e300, .greatestFiniteMagnitude]
      + (-29...49).map { Double(sign: .plus, exponent: $0, significand: 1) }
    for value in edges { #expect(byTable(value) == byLog(value), "bucket of \(value)") }
    #expect(byTable(QuantileSketch.zeroThreshold) == nil)
  }
}
