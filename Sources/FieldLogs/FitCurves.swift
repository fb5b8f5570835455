import Reports
import SimulationEngine
import Statistics

/// `fit_curves.csv`: per distribution of the goodness of fit, the observed and simulated quantiles at every
/// percent (a QQ plot) and the share of each side in 20 equal bins over the pooled 1st-99th percentiles (a
/// histogram; a time of day in its 24 clock hours): what report.html draws for a calibration.
public enum FitCurves {
  public static let file = "fit_curves.csv"
  public static let header = "distribution,unit,curve,x,x_high,observed,simulated\n"
  public static let bins = 20
  /// Whole-number values spanning at most this many numbers get a bin each.
  public static let wholeNumbers = 40

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
      if check.measure.perPhoneDays, let counts = wholeNumberBins(pooled) {
        text += histogram(
          prefix, check, low: counts.lowerBound, high: counts.upperBound, width: 1,
          count: Int(counts.upperBound - counts.lowerBound) + 1, whole: true)
        continue
      }
      if check.measure.name.hasSuffix("_time_of_day") {
        // Times of day: one bin a clock hour, the whole day (opens by hour, logs against the model).
        text += histogram(prefix, check, low: 0, high: 86_400, width: 3_600, count: 24, whole: false)
        continue
      }
      let (low, high) = (pooled.quantile(0.01), pooled.quantile(0.99))
      let width = high > low ? (high - low) / Double(bins) : 1
      text += histogram(prefix, check, low: low, high: high, width: width, count: bins, whole: false)
    }
    return text
  }

  /// For the counts a phone-day (whole numbers) spanning at most ``wholeNumbers`` numbers between the pooled 1st and
  /// 99th percentiles: one bin a number, so no bin holds two numbers and none holds none by construction.
  static func wholeNumberBins(_ pooled: SampleQuantiles) -> ClosedRange<Double>? {
    guard pooled.sorted.allSatisfy({ $0 == $0.rounded() }) else { return nil }
    let (low, high) = (pooled.quantile(0.01).rounded(.down), pooled.quantile(0.99).rounded(.up))
    return high - low + 1 <= Double(wholeNumbers) ? low...high : nil
  }

  /// The histogram rows: `count` bins of `width` from `low` (values up to `high`), each side's share of its values in each (a
  /// whole-number bin is the one number, written as `x` = `x_high`).
  static func histogram(
    _ prefix: String, _ check: GoodnessOfFit.Check, low: Double, high: Double, width: Double, count: Int,
    whole: Bool
  ) -> String {
    let shares = [check.observed, check.simulated].map { values in
      var counts = Array(repeating: 0.0, count: count)
      for value in values where value >= low && value <= high {
        counts[Swift.min(count - 1, Int((value - low) / width))] += 1
      }
      return counts.map { $0 / Double(values.count) }
    }
    var text = ""
    for bin in 0..<count {
      let from = low + Double(bin) * width
      text +=
        "\(prefix),histogram,\(CSVFormat.number(from, decimals: 3)),"
        + "\(CSVFormat.number(whole ? from : from + width, decimals: 3)),"
        + "\(CSVFormat.number(shares[0][bin], decimals: 5)),\(CSVFormat.number(shares[1][bin], decimals: 5))\n"
    }
    return text
  }
}
