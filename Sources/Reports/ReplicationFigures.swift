import WidgetModel

/// What a replication's summary metrics read over and over, derived once per replication: the per-minute
/// server totals and every energy subject's totals (see ``RunSummary/Metric/derived``).
struct ReplicationFigures: Sendable {
  let minutes: ServerMinuteTotals
  let energy: EnergyTotals

  init(_ result: ReplicationResult) {
    minutes = result.serverLoad.minuteTotals()
    energy = result.energyTotals()
  }
}
