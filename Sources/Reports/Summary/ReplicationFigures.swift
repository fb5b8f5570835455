import Results
import WidgetModel

/// What a replication's summary metrics read over and over, derived once per replication: the per-minute
/// server totals, every energy subject's totals and the app's wakes by channel and outcome (see
/// ``RunSummary/Metric/derived``).
struct ReplicationFigures: Sendable {
  let minutes: ServerMinuteTotals
  let energy: EnergyTotals
  /// By `channel * AppWakeOutcome.count + outcome`.
  let appWakes: [Int]

  init(_ result: ReplicationResult) {
    minutes = result.serverLoad.minuteTotals()
    energy = result.energyTotals()
    appWakes = result.appWakeTotalsByChannel()
  }
}
