import Reports

extension FitCharts {
  /// How a distribution's values are shown: a time of day (logged in seconds since midnight) as hours of the
  /// clock, anything else as logged.
  struct Display {
    let isClock: Bool
    let unit: String

    init(distribution: String, unit: String) {
      isClock = distribution.hasSuffix("_time_of_day")
      self.unit = isClock ? "hour of the day" : unit
    }

    /// A value of fit_curves.csv on the chart's axis.
    func value(_ text: String) -> Double {
      let value = Double(text) ?? 0
      return isClock ? value / 3_600 : value
    }

    /// A histogram bin's bound as its label shows it: `HH:MM` for a clock time.
    func label(_ text: String) -> String {
      isClock ? Display.clock(text) : HTMLText.figure(text)
    }

    /// Seconds since midnight as `HH:MM` (to the nearest minute); text that is not a number as a figure.
    static func clock(_ text: String) -> String {
      guard let seconds = Double(text) else { return HTMLText.figure(text) }
      return ClockText.minutes((Int((seconds / 60).rounded()) % 1_440 + 1_440) % 1_440)
    }
  }

  /// A logarithmic scale for an axis whose values are all positive and span more than two decades (a long
  /// tail on a linear axis squeezes the body into a corner), else none.
  static func scale(for values: [Double]) -> [(String, JSONValue)] {
    guard let low = values.min(), let high = values.max(), low > 0, high / low > 100 else { return [] }
    return [("scale", .object([("type", .string("log"))]))]
  }

  /// Each distribution's verdict from fit_report.csv, as a panel says it.
  static func verdicts(_ report: CSVTable) throws -> [String: (failed: Bool, text: String)] {
    let (name, verdict) = (try report.column("distribution"), try report.column("verdict"))
    let (distance, floor, p) = (
      try report.column("ks_distance"), try report.column("floor"), try report.column("ks_p_value")
    )
    var verdicts: [String: (failed: Bool, text: String)] = [:]
    for row in report.rows where verdicts[row[name]] == nil {
      let figures = "KS distance \(row[distance]) against its floor \(row[floor]), p \(row[p])"
      switch row[verdict] {
      case "fail": verdicts[row[name]] = (true, "Fails: \(figures): the difference is real and above the floor.")
      case "pass": verdicts[row[name]] = (false, "Passes: \(figures).")
      default: verdicts[row[name]] = (false, "Not tested: too few values on one side.")
      }
    }
    return verdicts
  }
}
