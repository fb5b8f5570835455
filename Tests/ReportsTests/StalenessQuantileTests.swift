import ScenarioFiles
import SimulationEngine
import Statistics
import TestSupport
import Testing
import WidgetModel

/// The staleness quantiles in summary.csv and staleness.csv come from a ``QuantileSketch``; here they are
/// checked against the exact quantiles of the very views they summarise (the traced device, replication by
/// replication), on a heavy-tailed design where the reported p95 may sit below the mean.
@Suite("Staleness quantiles against the exact sample")
struct StalenessQuantileTests {
  /// Every view's staleness in seconds in replication `replication`, from its trace (placeholders have none).
  static func viewedStaleness(_ configuration: ScenarioConfiguration, replication: Int) -> [Double] {
    ScenarioRunner.trace(configuration, device: 0, replication: replication).compactMap { record in
      guard case .view(_, _, let staleness?) = record.event else { return nil }
      return staleness.seconds
    }
  }

  @Test(
    "the WidgetKit-push design's p50, p95, p99 are within 0.5% of the exact ones; p95 beside the mean is the sample's")
  func widgetPushDesign() throws {
    let sweep = try SweepLoader.load(path: Repository.path("Scenarios/sweep-update-channel.yaml"))
    let configuration = sweep.configurations[4]
    #expect(configuration.widgets.count == 1 && configuration.widgets[0].data.pushes.contains(.widget))
    // summary.csv's staleness_p95 and staleness_mean: each replication's figure, averaged over replications.
    var (exactP95, sketchP95, means) = (0.0, 0.0, 0.0)
    for replication in 0..<configuration.replications {
      let result = ScenarioRunner.runReplication(configuration, replication: replication)
      let sketch = result.staleness[0].quantiles
      let values = Self.viewedStaleness(configuration, replication: replication).sorted()
      // The trace saw the views the recorder counted: the same number, the same mean (to the millisecond).
      #expect(values.count == Int(sketch.count) && values.count > 1_000)
      let mean = values.reduce(0, +) / Double(values.count)
      #expect(abs(mean - result.staleness[0].seconds.mean) < 1e-3)
      for p in [0.5, 0.95, 0.99] {
        // The sketch's documented guarantee: within a factor 1 ± α of the order statistic of rank ⌊p (n - 1)⌋.
        let rank = Int((p * Double(values.count - 1)).rounded(.down))
        let exact = values[rank]
        let estimate = sketch.quantile(p)
        let bound = sketch.relativeAccuracy * exact * (1 + 1e-12)
        #expect(abs(estimate - exact) <= bound, "replication \(replication) p\(p): \(estimate) vs \(exact)")
        // The interpolated quantile (Hyndman-Fan 7, as SampleQuantiles) lies between that order statistic
        // and the next: where they differ, that gap, not the sketch, separates the two definitions.
        let interpolated = SampleQuantiles(values).quantile(p)
        #expect(interpolated >= exact && interpolated <= values[Swift.min(rank + 1, values.count - 1)])
      }
      // Heavy-tailed: most views find the data current (0 s), a few find it up to about an hour old, so the
      // 95th percentile can fall at or near 0 while those few raise the mean.
      let fresh = values.filter { $0 == 0 }.count
      #expect(Double(fresh) / Double(values.count) > 0.9)
      #expect(try #require(values.last) > 600)
      exactP95 += values[Int((0.95 * Double(values.count - 1)).rounded(.down))]
      sketchP95 += sketch.quantile(0.95)
      means += mean
    }
    // Where the reported p95 falls beside the mean is the sample's, not the sketch's: the sketch's p95 and
    // the exact one fall on the same side of the mean (the 10 replications' sums: exact p95 336.3 s against
    // means 287.1 s; with other draws of the same law, 254.3 s against 267.1 s).
    #expect(abs(sketchP95 - exactP95) <= QuantileSketch().relativeAccuracy * exactP95)
    #expect((sketchP95 < means) == (exactP95 < means))
  }
}
