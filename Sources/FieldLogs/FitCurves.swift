import Reports
import SimulationEngine

/// `fit_curves.csv`: per distribution of the goodness of fit, the observed and simulated quantiles at every
/// percent (a QQ plot) and the share of each side in 20 equal bins over the pooled 1st-99th percentiles (a
/// histogram): what report.html draws for a calibration.
public enum FitCurves {
  public static let file = "fit_curves.csv"
  public static let header = "distribution,unit,curve,x,x_high,observed,simulated\n"
  public static let bins = 20

  public static func csv(_ checks: [GoodnessOfFit.Check]) -> String {
    var text = header
    for check in checks where !check.observed.isEmpty && !check.simulated.isEmpty {
      let (observed, simulated) = (SampleQuantiles(sorted: check.observed), SampleQuantiles(sorted: check.simulated))
      let prefix = "\(check.measure.name),\(check.measure.unit)"
      for percent in 1...99 {
        let p = Double(percent) / 100
        text +=
          "\(prefix),qq,\(CSVFormat.number(p, decimals: 2)),,"
          + "\(CSVFormat.number(observed.quantile(p), decimals: 3)),\(CSVFormat.number(simulated.quantile(p), decimals: 3))\n"
      }
      let pooled = SampleQuantiles.pooling(observed, simulated)
      let (low, high) = (pooled.quantile(0.01), pooled.quantile(0.99))
      let width = high > low ? (high - low) / Double(bins) : 1
      let shares = [check.observed, check.simulated].map { values in
        var counts = Array(repeating: 0.0, count: bins)
        for value in values where value >= low && value <= high {
          counts[Swift.min(bins - 1, Int((value - low) / width))] += 1
        }
        return counts.map { $0 / Double(values.count) }
      }
      for bin in 0..<bins {
        text +=
          "\(prefix),histogram,\(CSVFormat.number(low + Double(bin) * width, decimals: 3)),"
          + "\(CSVFormat.number(low + Double(bin + 1) * width, decimals: 3)),"
          + "\(CSVFormat.number(shares[0][bin], decimals: 5)),\(CSVFormat.number(shares[1][bin], decimals: 5))\n"
      }
    }
    return text
  }
}
