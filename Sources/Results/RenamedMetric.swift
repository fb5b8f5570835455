/// Summary metrics renamed for what they are, with the names they had. A gate, a sweep objective or a
/// baseline's `replications.csv` that names a metric by its old name still finds it: ``current(_:)``
/// answers every name, old or new, with the one `summary.csv` now writes.
public enum RenamedMetric {
  /// Old name -> current name. The three server rows are requests per second averaged over one minute (the
  /// busiest, or the 99th percentile of minutes), not a busiest second: their old names (`..._peak`) sat
  /// beside `peak_requests_per_second` and read as the same kind of figure.
  public static let previousNames: [String: String] = [
    "fetch_qps_peak": "fetch_qps_busiest_minute",
    "fetch_qps_p99": "fetch_qps_p99_minute",
    "push_qps_peak": "push_qps_busiest_minute",
  ]

  /// The name `summary.csv` writes for `name` (itself when it was never renamed).
  public static func current(_ name: String) -> String {
    previousNames[name] ?? name
  }
}
