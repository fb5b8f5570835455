import Results
import SimulationEngine
import Statistics
import WidgetModel

/// The few lines a run prints at its end: where the reports are and the headline numbers.
public enum RunSummaryText {
  /// The scenario's size and speed, the reports' folder, and per widget instance the headline metrics with
  /// their 95% confidence intervals.
  ///
  /// `largestPeaks`: per ``ServerDirection``, the largest busiest second of any replication as
  /// ``RunReportWriter/largestPeaks`` says it; `warnings` are printed last, each behind `warning: `.
  public static func text(
    configuration: ScenarioConfiguration, summary: RunSummary, events: UInt64, directory: String, seconds: Double,
    largestPeaks: [String] = [], warnings: [String] = []
  ) -> String {
    let labels = configuration.instances.map(\.label)
    var lines = [
      "\(configuration.name): \(configuration.days) days"
        + (configuration.warmupDays > 0 ? " (after a \(configuration.warmupDays)-day warm-up)" : "")
        + " x \(configuration.replications) replications, "
        + "\(labels.count) widget instances, \(events) events in \(fixed(seconds, 2)) s",
      "reports: \(directory)/ (\(RunReports.files.joined(separator: ", ")))",
      "per widget, mean over replications\(intervalNote(summary, labels)):",
    ]
    for label in labels {
      func show(_ metric: String, _ decimals: Int) -> String { RunSummaryText.show(summary, metric, label, decimals) }
      lines.append(
        "  \(label): reloads/day \(show("reloads_per_day", 1)) (budgeted \(show("budgeted_reloads_per_day", 1))), "
          + "withheld/day \(show("requests_per_day_withheld_granted", 1)), "
          + "staleness p95 \(show("staleness_p95", 0)) s, budget exhausted on \(show("budget_exhausted_day_share", 2)) of days, "
          + "energy (widget alone) \(show("mwh_per_day", 2)) mWh/day"
      )
    }
    if let phone = phoneLine(summary) { lines.append(phone) }
    lines.append(FigureAssumptions.line(configuration))
    if configuration.fleet.devices > 1 { lines += fleetHeadline(configuration, summary, largestPeaks: largestPeaks) }
    if let warning = fewReplicationsWarning(configuration.replications) { lines.append(warning) }
    lines += warnings.map { "warning: \($0)" }
    return lines.joined(separator: "\n")
  }

  /// ` [95% CI]` when a row of `subjects` has an interval, else nothing: one replication of a fleet that
  /// simulates every phone has none, and a header promising one would be read into the figures.
  static func intervalNote(_ summary: RunSummary, _ subjects: [String]) -> String {
    summary.rows.contains { subjects.contains($0.widget) && $0.interval != nil } ? " [95% CI]" : ""
  }

  /// A warning that `replications` (2 to 4) are too few for 95% intervals to mean much; nil otherwise.
  public static func fewReplicationsWarning(_ replications: Int) -> String? {
    guard replications >= 2, replications < MetricInterval.fewReplications else { return nil }
    let t = ConfidenceInterval.studentQuantile(probability: 0.975, degreesOfFreedom: Double(replications - 1))
    return "warning: \(replications) replications: each interval is \(fixed(t, 1)) standard errors either side of "
      + "the mean (t with \(replications - 1) degree\(replications == 2 ? "" : "s") of freedom) and says little; run at "
      + "least \(MetricInterval.fewReplications) (--replications; 10 or more for tight intervals), or let --precision "
      + "choose"
  }

  /// A fleet's headline: the servers' load per second by stream (scaled to the real fleet), pushes, each
  /// event's fan-out, and what the app costs each phone.
  static func fleetHeadline(
    _ configuration: ScenarioConfiguration, _ summary: RunSummary, largestPeaks: [String]
  ) -> [String] {
    func show(_ metric: String, _ subject: String, _ decimals: Int) -> String {
      RunSummaryText.show(summary, metric, subject, decimals)
    }
    let fleet = configuration.fleet
    var lines = [
      "fleet of \(fixed(fleet.represents, 0)) phones (\(fleet.devices) simulated); the servers, per second, scaled to "
        + "the fleet; busiest second: the mean over \(configuration.replications) replication"
        + "\(configuration.replications == 1 ? "" : "s") of each one's busiest second"
        + "\(intervalNote(summary, ServerDirection.allCases.map(\.name))):"
    ]
    for direction in ServerDirection.allCases {
      let name = direction.name
      guard let mean = summary.row("mean_requests_per_second", widget: name), mean.values.mean > 0 else { continue }
      var line =
        "  \(name) (\(direction == .received ? "fetches, token registrations" : "pushes to APNs, broadcast requests")): "
        + "busiest second \(show("peak_requests_per_second", name, 0)) requests/s, "
        + "p99 \(show("p99_requests_per_second", name, 0)), mean \(show("mean_requests_per_second", name, 1))"
      if let bytes = summary.row("peak_bytes_per_second", widget: name), bytes.values.mean > 0 {
        line += ", busiest second fetched \(fixed(bytes.values.mean / 1e6, 1)) MB"
      }
      lines.append(line)
      if direction.rawValue < largestPeaks.count, !largestPeaks[direction.rawValue].isEmpty {
        lines.append("    largest: \(largestPeaks[direction.rawValue])")
      }
    }
    if let streams = streamLine(summary) { lines.append(streams) }
    lines.append("  pushes sent/day: \(show("pushes_sent_per_day", "server", 0))")
    for event in configuration.events {
      // The median and shares, not a mean over devices: phones asleep until morning dominate a mean.
      let shares = EventDelivery.deliveryLimitsMinutes.map {
        fixed(100 * (summary.row("event_delivered_within_\($0)m_share", widget: event.id)?.values.mean ?? .nan), 0)
          + "%"
      }
      lines.append(
        "  event \(event.id): fan-out \(show("event_fanout_seconds", event.id, 1)) s, first push delivered after "
          + "\(show("event_delivery_median_seconds", event.id, 0)) s (median), within 1/10/60 min "
          + "\(shares.joined(separator: "/")) of phones; the last simulated phone after "
          + "\(show("event_delivery_last_seconds", event.id, 0)) s (a sample's maximum: more phones, later)")
    }
    return lines
  }

  /// Each stream's busiest second, p99 and mean requests per second; for a sample of the fleet the mean
  /// alone, as a stream's busiest second and p99 are not estimated from one (``RunSummary/Row/estimable``).
  static func streamLine(_ summary: RunSummary) -> String? {
    var streams: [String] = []
    var estimable = true
    for stream in ServerStream.partition {
      guard let mean = summary.row("mean_requests_per_second", widget: stream.name), mean.values.mean > 0 else {
        continue
      }
      let peak = summary.row("peak_requests_per_second", widget: stream.name)
      estimable = estimable && peak?.estimable != false
      streams.append(
        "\(stream.name) "
          + (peak?.estimable == false
            ? fixed(mean.values.mean, 1)
            : "\(fixed(peak?.values.mean ?? .nan, 0))"
              + "/\(fixed(summary.row("p99_requests_per_second", widget: stream.name)?.values.mean ?? .nan, 0))"
              + "/\(fixed(mean.values.mean, 1))"))
    }
    guard !streams.isEmpty else { return nil }
    let list = streams.joined(separator: ", ")
    return estimable
      ? "  by stream, busiest second/p99/mean requests/s: \(list)"
      : "  by stream, mean requests/s (a stream's busiest second and p99 are not estimable from a sample of the "
        + "fleet; summary.csv gives raw_ rows, the sample's counts times the scale, which run high): \(list)"
  }

  /// What the phone pays for the app's design per day, with 95% CIs: every widget, push wake-up, Live
  /// Activity and the app's own runs with their radio (`phone_mwh_per_day`, `phone_battery_percent_per_day`
  /// of the `device` row); nil when the summary has no such row. A widget's own energy is a part of it.
  public static func phoneLine(_ summary: RunSummary) -> String? {
    guard summary.row("phone_mwh_per_day", widget: "device") != nil else { return nil }
    return "what the phone pays (widgets, the app's own runs, push wake-ups, radio): "
      + "\(show(summary, "phone_mwh_per_day", "device", 2)) mWh/day, "
      + "\(show(summary, "phone_battery_percent_per_day", "device", 3)) % of its battery a day"
  }

  /// A summary row's mean with its interval (`-` when the summary has no such row).
  static func show(_ summary: RunSummary, _ metric: String, _ subject: String, _ decimals: Int) -> String {
    guard let row = summary.row(metric, widget: subject) else { return "-" }
    return withInterval(row.values.mean, row.interval.map { ($0.low, $0.high) }, decimals)
  }

  /// `mean [low, high]` rounded to `decimals` places, or the mean alone without an interval.
  public static func withInterval(_ mean: Double, _ interval: (low: Double, high: Double)?, _ decimals: Int) -> String {
    guard let interval else { return fixed(mean, decimals) }
    return "\(fixed(mean, decimals)) [\(fixed(interval.low, decimals)), \(fixed(interval.high, decimals))]"
  }

  /// `value` rounded to `decimals` places, without Foundation; `-` when it is not finite.
  public static func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((value * scale).rounded())
    let sign = scaled < 0 ? "-" : ""
    let magnitude = scaled.magnitude
    guard decimals > 0 else { return "\(sign)\(magnitude)" }
    var fraction = String(magnitude % UInt64(scale))
    while fraction.count < decimals { fraction = "0" + fraction }
    return "\(sign)\(magnitude / UInt64(scale)).\(fraction)"
  }
}
