import SimulationEngine
import WidgetModel

/// The headline metrics of a run: one value per replication and instance, summarised over replications
/// with the mean and a 95% Student t confidence interval.
public struct RunSummary: Sendable {
  /// One metric of one instance, over replications.
  public struct Row: Sendable {
    public let metric: String
    public let widget: String
    public let unit: String
    public let values: RunningStatistics

    /// The 95% confidence interval of the mean; nil with a single replication.
    public var interval: ConfidenceInterval? { ConfidenceInterval(values) }
  }

  public let rows: [Row]

  /// The summary of results all in hand (in replication order).
  public init(results: [ReplicationResult], labels: [String]) {
    var accumulator = Accumulator(labels: labels)
    for result in results { accumulator.add(result) }
    self = accumulator.summary
  }

  init(rows: [Row]) {
    self.rows = rows
  }

  /// Builds a summary one replication at a time, keeping only a running mean and variance per metric.
  public struct Accumulator: Sendable {
    let labels: [String]
    /// By `instance * metrics.count + metric`.
    var values: [RunningStatistics]

    public init(labels: [String]) {
      self.labels = labels
      values = Array(repeating: RunningStatistics(), count: labels.count * RunSummary.metrics.count)
    }

    public mutating func add(_ result: ReplicationResult) {
      for instance in labels.indices {
        for (index, metric) in RunSummary.metrics.enumerated() {
          values[instance * RunSummary.metrics.count + index].add(metric.value(result, instance))
        }
      }
    }

    public var summary: RunSummary {
      var rows: [Row] = []
      for (instance, label) in labels.enumerated() {
        for (index, metric) in RunSummary.metrics.enumerated() {
          rows.append(
            Row(
              metric: metric.name, widget: label, unit: metric.unit,
              values: values[instance * RunSummary.metrics.count + index]))
        }
      }
      return RunSummary(rows: rows)
    }
  }

  /// The row for a metric and widget, if present.
  public func row(_ metric: String, widget: String) -> Row? {
    rows.first { $0.metric == metric && $0.widget == widget }
  }

  public static let header = "metric,widget,mean,ci95_low,ci95_high,replications,unit\n"

  public func csv() -> String {
    var text = RunSummary.header
    for row in rows {
      let interval = row.interval
      let cells = [
        row.metric, CSVFormat.text(row.widget), CSVFormat.number(row.values.mean),
        CSVFormat.number(interval?.low ?? .nan), CSVFormat.number(interval?.high ?? .nan), "\(row.values.count)",
        row.unit,
      ]
      text += cells.joined(separator: ",") + "\n"
    }
    return text
  }

  struct Metric: Sendable {
    let name: String
    let unit: String
    let value: @Sendable (ReplicationResult, Int) -> Double
  }

  /// Every metric, documented in README.md (report columns). Per-day rates divide by the simulated days.
  static let metrics: [Metric] = {
    var metrics: [Metric] = [
      Metric(name: "requests_per_day", unit: "requests/day") { result, instance in
        Double(result.total(instance: instance)) / Double(result.days)
      },
      Metric(name: "reloads_per_day", unit: "reloads/day") { result, instance in
        let ran = ReloadOutcome.allCases.filter(\.isReload)
        return Double(ran.map { result.total(instance: instance, outcome: $0) }.reduce(0, +)) / Double(result.days)
      },
      Metric(name: "budgeted_reloads_per_day", unit: "reloads/day") { result, instance in
        let budgeted: [ReloadOutcome] = [.grantedBudget, .withheldGranted, .deferredGranted]
        return Double(budgeted.map { result.total(instance: instance, outcome: $0) }.reduce(0, +)) / Double(result.days)
      },
    ]
    for outcome in ReloadOutcome.allCases {
      metrics.append(
        Metric(name: "requests_per_day_\(outcome.name)", unit: "requests/day") { result, instance in
          Double(result.total(instance: instance, outcome: outcome)) / Double(result.days)
        })
    }
    metrics += [
      Metric(name: "views_per_day", unit: "views/day") { result, instance in
        Double(result.staleness[instance].views) / Double(result.days)
      },
      Metric(name: "stale_view_share", unit: "fraction") { result, instance in
        let recorder = result.staleness[instance]
        return recorder.views > 0 ? Double(recorder.staleViews) / Double(recorder.views) : .nan
      },
      Metric(name: "placeholder_view_share", unit: "fraction") { result, instance in
        let recorder = result.staleness[instance]
        return recorder.views > 0 ? Double(recorder.placeholderViews) / Double(recorder.views) : .nan
      },
      Metric(name: "staleness_mean", unit: "s") { result, instance in
        let seconds = result.staleness[instance].seconds
        return seconds.count > 0 ? seconds.mean : .nan
      },
      Metric(name: "staleness_p50", unit: "s") { result, instance in result.staleness[instance].quantiles.quantile(0.5)
      },
      Metric(name: "staleness_p95", unit: "s") { result, instance in result.staleness[instance].quantiles.quantile(0.95)
      },
      Metric(name: "staleness_max", unit: "s") { result, instance in
        let seconds = result.staleness[instance].seconds
        return seconds.count > 0 ? seconds.maximum : .nan
      },
      Metric(name: "budget_exhausted_day_share", unit: "fraction") { result, instance in
        let days = (0..<result.days).filter { result.budgetExhausted(day: $0, instance: instance) }.count
        return Double(days) / Double(result.days)
      },
      Metric(name: "last_budget_grant_hour", unit: "hour of day") { result, instance in
        let hours = (0..<result.days).compactMap { result.lastBudgetGrantHour(day: $0, instance: instance) }
        return hours.isEmpty ? .nan : hours.reduce(0, +) / Double(hours.count)
      },
      Metric(name: "cpu_time_per_day", unit: "s/day") { result, instance in
        result.cpuSeconds[instance] / Double(result.days)
      },
      Metric(name: "fetches_per_day", unit: "requests/day") { result, instance in
        Double(result.fetches[instance]) / Double(result.days)
      },
      Metric(name: "fetch_bytes_per_day", unit: "bytes/day") { result, instance in
        result.fetchBytes[instance] / Double(result.days)
      },
    ]
    return metrics
  }()
}
