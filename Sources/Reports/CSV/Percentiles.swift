import SimulationEngine
import Statistics

/// Percentiles of figures read back from reports (the budget band of report.html), by the definition the
/// run summaries use: Hyndman–Fan 7, through the engine's `SampleQuantiles`. Readers of reports need not
/// import the engine for it.
public enum Percentiles {
  /// The quantiles of `values` at each of `probabilities` (each in [0, 1]), in that order.
  public static func of(_ values: [Double], at probabilities: [Double]) -> [Double] {
    let quantiles = SampleQuantiles(values)
    return probabilities.map { quantiles.quantile($0) }
  }
}
