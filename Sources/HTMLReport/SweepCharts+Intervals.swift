import Reports

/// What a sweep chart's caption and axis may say of its intervals: only what it draws. One replication per
/// point draws none (but a fleet's sample estimate, which has its own), an extreme has none, and a chart
/// that draws some says where.
extension SweepCharts {
  /// The intervals `rows` of sweep_summary.csv draw: how many have one, how they were made (`ci_method`; a
  /// folder written before that column: `t`) and the most replications a row has.
  struct DrawnIntervals {
    var drawn = 0
    var count = 0
    var methods: Set<String> = []
    var replications = 0

    /// What an interval drawn is called: a confidence interval over replications, the sample's own interval
    /// (one replication of a sample of the fleet), or both.
    var name: String {
      let sample = methods.contains(MetricInterval.Method.fleetSample.rawValue)
      let replicated = methods.contains { $0 != MetricInterval.Method.fleetSample.rawValue }
      switch (replicated, sample) {
      case (true, true): return "its 95% interval (the confidence interval over replications, or the sample's own)"
      case (false, true): return "the sample's 95% interval (where the whole fleet's figure falls)"
      default: return "its 95% confidence interval"
      }
    }

    /// What a mark is: the mean over replications, or one replication's value.
    var value: String {
      guard replications <= 1 else { return "mean over replications" }
      return drawn > 0 && methods == [MetricInterval.Method.fleetSample.rawValue]
        ? "estimate from its one replication" : "value in its one replication"
    }

    /// `with its 95% confidence interval` (`where it has one` when not every mark has one), or why none is
    /// drawn.
    var phrase: String {
      guard drawn > 0 else {
        return replications <= 1
          ? "(no interval is drawn: one replication has none)" : "(no interval: an extreme has none)"
      }
      return "with \(name)" + (drawn < count ? " where it has one" : "")
    }

    /// The y axis's title after the metric: `mean and 95% CI`, `mean and interval`, or `mean`.
    var axis: String {
      guard drawn > 0 else { return replications <= 1 ? "one replication" : "mean" }
      return methods == [MetricInterval.Method.fleetSample.rawValue]
        ? "estimate and the sample's 95% interval" : "mean and 95% CI"
    }
  }

  /// The intervals of `rows` (rows of ``table``).
  func drawnIntervals(_ rows: [[String]]) -> DrawnIntervals {
    let low = table.header.firstIndex(of: "ci95_low")
    let high = table.header.firstIndex(of: "ci95_high")
    let method = table.header.firstIndex(of: "ci_method")
    let replications = table.header.firstIndex(of: "replications")
    let mean = table.header.firstIndex(of: "mean")
    var drawn = DrawnIntervals()
    for row in rows {
      guard let mean, CSVTable.number(row[mean]) != nil else { continue }
      drawn.count += 1
      if let count = replications.flatMap({ Int(row[$0]) }) { drawn.replications = max(drawn.replications, count) }
      guard let low, let high, CSVTable.number(row[low]) != nil, CSVTable.number(row[high]) != nil else { continue }
      drawn.drawn += 1
      drawn.methods.insert(method.map { row[$0] } ?? MetricInterval.Method.t.rawValue)
    }
    return drawn
  }
}
