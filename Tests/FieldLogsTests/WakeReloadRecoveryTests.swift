import FieldLogs
import ScenarioFiles
import TestSupport
import Testing
import WidgetModel

/// The share of background runs that reload, and the data's rate of change behind it, recovered from logs
/// of an app whose forecast changes 0.3 times an hour and is reloaded when a run finds it changed.
@Suite struct WakeReloadRecoveryTests {
  static let rate = 0.3
  static let changes = "widgets[forecast].data={changes: {per_hour: \(rate)}, on_change: reload_kind}"

  /// Over 10 seeds of 40 phones, the rate's 95% interval holds the truth in at least 8 (a sound interval
  /// misses 3 or more of 10 with probability 1.2%), and the share of runs that reload is far above the
  /// example's (where no data behind a run changes unseen).
  @Test(.slow("10 seeds of 40 phones calibrated")) func theRateOfChangeIsRecovered() throws {
    var base = try ScenarioLoader.load(
      path: Repository.path("Scenarios/field/calibrate.yaml"), overrides: [try ScenarioOverride(Self.changes)]
    ).configuration
    base.fleet.devices = 40
    var (holds, shares, estimates) = (0, [Double](), [String]())
    for seed in 1...10 {
      let logs = try CalibrationRecoveryTests.sample(seed: seed, set: [Self.changes])
      let fits = FieldEstimators.fit(logs, base: base)
      let fit = try #require(fits.first { $0.key == "widgets[forecast].data.changes.per_hour" })
      let (low, high) = (try #require(fit.low, "\(fit.refusal ?? "")"), try #require(fit.high))
      if low <= Self.rate && Self.rate <= high { holds += 1 }
      estimates.append("\(fit.estimate ?? 0) [\(low), \(high)] n \(fit.count)")
      #expect(fit.override?.hasPrefix("widgets[forecast].data.changes={per_hour: ") == true)
      shares.append(try #require(fits.first { $0.key == "app.background_refresh.reload_share" }?.estimate))
    }
    #expect(holds >= 8, "the interval held \(WakeReloadRecoveryTests.rate) in \(holds) of 10 seeds: \(estimates)")
    #expect(shares.allSatisfy { $0 > 0.2 }, "\(shares)")
  }

  /// A base that reloads on no change says so beside the share, which fits nothing then.
  @Test func aBaseThatNeverReloadsSaysSo() throws {
    let base = try ScenarioLoader.load(
      path: Repository.path("Scenarios/field/calibrate.yaml"),
      overrides: [try ScenarioOverride("widgets[scores].data={changes: {per_day: 6}}")]
    ).configuration
    let fits = FieldEstimators.fit(try CalibrationRecoveryTests.sample(seed: 1, set: [Self.changes]), base: base)
    let share = try #require(fits.first { $0.key == "app.background_refresh.reload_share" })
    #expect(share.method.contains("no widget of the base reloads on a change"))
    #expect(share.override == nil)
    #expect(!fits.contains { $0.key.hasSuffix("data.changes.per_hour") })
  }
}
