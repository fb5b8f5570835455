import Foundation
import Statistics
import Testing

@testable import SimulationEngine

/// The exponential ziggurat against the inversion it replaced (`-mean * log(1 - u)`, `gsl_ran_exponential`'s
/// law): the same distribution, drawn from other outputs of the generator. Each comparison is a two-sample
/// test at level 0.001 on samples large enough to see a 1% difference, and each also runs against the
/// inversion scaled by 1.01, which it must reject: the power is shown, not only claimed.
@Suite("Exponential ziggurat")
struct ExponentialZigguratTests {
  /// The draw the model made before the ziggurat.
  static func inversion(_ stream: RandomStream, mean: Double) -> Double {
    -mean * log(1 - stream.uniform())
  }

  static func stream(_ id: Int) -> RandomStream {
    RandomStream(seed: StreamSeed(scenarioSeed: 65, replication: 0, entity: 1, stream: UInt64(id)))
  }

  /// Welch's z for the difference of two sample means.
  static func meanZ(_ a: [Double], _ b: [Double]) -> Double {
    func moments(_ x: [Double]) -> (mean: Double, variance: Double) {
      let mean = x.reduce(0, +) / Double(x.count)
      let variance = x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(x.count - 1)
      return (mean, variance)
    }
    let (first, second) = (moments(a), moments(b))
    return (first.mean - second.mean)
      / (first.variance / Double(a.count) + second.variance / Double(b.count)).squareRoot()
  }

  /// The two-sided 0.001 critical value of a standard normal.
  static let critical = 3.2905

  @Test("1,000,000 draws each: the ziggurat's law is the inversion's, and a 1% scale change is seen")
  func drawsMatchInversion() {
    let count = 1_000_000
    let (zig, old) = (ExponentialZigguratTests.stream(1), ExponentialZigguratTests.stream(2))
    let ziggurat = (0..<count).map { _ in zig.exponential(mean: 1) }
    let inverted = (0..<count).map { _ in ExponentialZigguratTests.inversion(old, mean: 1) }
    let scaled = inverted.map { $0 * 1.01 }
    // Kolmogorov-Smirnov: a 1% scale change moves the distribution function by up to 0.01/e = 0.0037,
    // and the 0.001 critical distance at n = m = 10^6 is 1.95 * (2 / 10^6)^0.5 = 0.0028 (power about 0.95).
    #expect(TwoSampleKS(ziggurat, inverted).p > 0.001)
    #expect(TwoSampleKS(ziggurat, scaled).p < 0.001)
    // Means: the standard error of the difference is (2 / 10^6)^0.5 = 0.0014, so a 1% shift is 7 of them
    // (power above 0.999 at the 0.001 level).
    #expect(abs(ExponentialZigguratTests.meanZ(ziggurat, inverted)) < ExponentialZigguratTests.critical)
    #expect(abs(ExponentialZigguratTests.meanZ(ziggurat, scaled)) > ExponentialZigguratTests.critical)
    // The tail beyond the base layer (x > 7.697, probability e^-7.697 = 4.5e-4) is drawn too: 454 expected.
    let tail = ziggurat.count { $0 > 7.697_117_470_131_487 }
    let expected = Double(count) * exp(-7.697_117_470_131_487)
    #expect(abs(Double(tail) - expected) < 4 * expected.squareRoot())
  }

  /// One polling widget's day, by the given gap sampler: views at 6 an hour over 16 waking hours, data
  /// changes at 2 an hour, a reload every 15 minutes that makes the widget current. Returns the day's view
  /// count and each view's staleness (seconds since the first change the widget does not show yet).
  static func pollingDay(_ gap: (Double) -> Double) -> (views: Int, staleness: [Double]) {
    let day = 16 * 3_600.0
    var staleness: [Double] = []
    var change = gap(1_800)
    var view = gap(600)
    while view < day {
      // The last reload before the view; the first change after it, if it came before the view.
      let reload = (view / 900).rounded(.down) * 900
      while change < reload { change += gap(1_800) }
      staleness.append(change < view ? view - change : 0)
      view += gap(600)
    }
    return (staleness.count, staleness)
  }

  @Test("60,000 polling days each: views per day and staleness at view as before, a 1% change seen")
  func pollingFiguresMatch() {
    let days = 60_000
    let (zig, old, scaledOld) = (
      ExponentialZigguratTests.stream(3), ExponentialZigguratTests.stream(4), ExponentialZigguratTests.stream(5)
    )
    let new = (0..<days).map { _ in ExponentialZigguratTests.pollingDay { zig.exponential(mean: $0) } }
    let before = (0..<days).map { _ in
      ExponentialZigguratTests.pollingDay { ExponentialZigguratTests.inversion(old, mean: $0) }
    }
    // The control: views 1% more often (gaps 1% shorter), changes as before.
    let faster = (0..<days).map { _ in
      ExponentialZigguratTests.pollingDay {
        ExponentialZigguratTests.inversion(scaledOld, mean: $0 == 600 ? $0 / 1.01 : $0)
      }
    }
    // Views per day: about 96 with a standard deviation of about 9.8, so the difference of two 60,000-day
    // means has a standard error of 0.057 and 1% (0.96) is 17 of them (power above 0.999).
    let views = (new.map { Double($0.views) }, before.map { Double($0.views) }, faster.map { Double($0.views) })
    #expect(abs(ExponentialZigguratTests.meanZ(views.0, views.1)) < ExponentialZigguratTests.critical)
    #expect(abs(ExponentialZigguratTests.meanZ(views.0, views.2)) > ExponentialZigguratTests.critical)
    // Staleness at view, a day's mean (days are independent; views within a day share changes): about 66 s
    // with a standard deviation of about 23 s a day, so 1% (0.66 s) is 5.0 standard errors of the
    // difference (power 0.96 at the 0.001 level); the whole distribution (every quantile) by
    // Kolmogorov-Smirnov over all views, with the days as the independent units.
    func dailyMeans(_ days: [(views: Int, staleness: [Double])]) -> [Double] {
      days.map { $0.staleness.reduce(0, +) / Double(Swift.max(1, $0.views)) }
    }
    let stale = (dailyMeans(new), dailyMeans(before))
    #expect(abs(ExponentialZigguratTests.meanZ(stale.0, stale.1)) < ExponentialZigguratTests.critical)
    #expect(abs(ExponentialZigguratTests.meanZ(stale.0, stale.1.map { $0 * 1.01 })) > ExponentialZigguratTests.critical)
    let ks = TwoSampleKS(new.flatMap(\.staleness), before.flatMap(\.staleness), independent: (days, days))
    #expect(ks.p > 0.001)
  }
}
