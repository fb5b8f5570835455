import CommandSupport
import WidgetModel

/// How `run --precision` makes a per-second figure of a sampled fleet precise (the p99, the busiest second,
/// the most bytes in a second, when `fleet.devices` stand for more phones and the run has one replication):
/// by simulating more of the fleet's phones, not more replications. The figure's interval has a part the
/// sample's size accounts for (``RunSummary/Row/samplingHalfWidth``), which shrinks as one over the square
/// root of the devices, and the whole fleet's own second-to-second chance, which no sample removes: the
/// target is met when the first is within P% of the estimate.
public struct SampleSizePlan: Sendable, Equatable {
  public var targets: [PrecisionTarget]
  /// The most devices to simulate: the fleet's real phones, or less (`--max-devices`).
  public var maximumDevices: Int

  /// The summary metrics a sample's size makes precise.
  public static let metrics: Set<String> = [
    "p99_requests_per_second", "peak_requests_per_second", "peak_bytes_per_second",
  ]
  /// A margin on the devices the square-root law asks for, so the next run usually meets the target.
  static let margin = 1.1

  public init(targets: [PrecisionTarget], maximumDevices: Int) {
    self.targets = targets
    self.maximumDevices = Swift.max(1, maximumDevices)
  }

  /// Whether targets on `configuration`'s run are met by devices: every one names a per-second figure, the
  /// fleet is a sample, and the run has one replication (with more, the figures' interval is over them).
  /// False when none is; an error when some targets are and some are not.
  public static func applies(_ targets: [PrecisionTarget], to configuration: ScenarioConfiguration)
    throws(CommandFailure) -> Bool
  {
    guard configuration.fleet.scale > 1, configuration.replications == 1 else { return false }
    let sampled = targets.filter { SampleSizePlan.metrics.contains($0.metric) }
    if sampled.isEmpty { return false }
    guard sampled.count == targets.count else {
      let others = targets.filter { !SampleSizePlan.metrics.contains($0.metric) }.map(\.description)
      throw .badInput(
        "--precision: \(sampled.map(\.description).joined(separator: ", ")) are made precise by simulating more "
          + "devices and \(others.joined(separator: ", ")) by more replications: give them to separate runs")
    }
    return true
  }

  /// The largest sampling half-width over the estimate among the rows `target` names: 0 when the rows are
  /// counted (every phone simulated), infinity when one cannot be measured.
  public static func achieved(_ target: PrecisionTarget, in summary: RunSummary) -> Double {
    var worst = 0.0
    for row in summary.rows where target.names(row) {
      guard let half = row.samplingHalfWidth else { continue }
      let magnitude = abs(row.values.mean)
      worst = Swift.max(worst, half == 0 ? 0 : magnitude > 0 ? half / magnitude : .infinity)
    }
    return worst
  }

  public func isMet(in summary: RunSummary) -> Bool {
    targets.allSatisfy { SampleSizePlan.achieved($0, in: summary) <= $0.relativeHalfWidth }
  }

  /// The devices to simulate next after a run of `devices` gave `summary`: what the square-root law asks
  /// for the farthest target, with a margin, at least one more and at most ``maximumDevices``; nil when the
  /// run is done (every target met, or the most devices ran).
  public func nextDevices(after devices: Int, summary: RunSummary) -> Int? {
    guard !isMet(in: summary), devices < maximumDevices else { return nil }
    var ratio = 1.0
    for target in targets {
      let achieved = SampleSizePlan.achieved(target, in: summary)
      guard achieved.isFinite else { return maximumDevices }
      ratio = Swift.max(ratio, achieved / target.relativeHalfWidth)
    }
    let wanted = (Double(devices) * ratio * ratio * SampleSizePlan.margin).rounded(.up)
    return Swift.min(maximumDevices, Swift.max(devices + 1, Int(Swift.min(wanted, 1e15))))
  }

  /// One line per target: the sampling half-width it reached with `devices`, and how wide the whole
  /// interval is (the fleet's own chance included); `next`, the devices of the run to come, if any.
  public func report(_ summary: RunSummary, devices: Int, next: Int? = nil) -> String {
    let met = isMet(in: summary)
    var lines = [
      next != nil
        ? "precision: not every target met with \(devices) devices"
        : met
          ? "precision: every target met with \(devices) devices"
          : "precision: warning: not every target met with \(devices) devices (the most, --max-devices "
            + "\(maximumDevices))"
    ]
    for target in targets {
      let achieved = SampleSizePlan.achieved(target, in: summary)
      let figure = achieved.isFinite ? "±\(CSVFormat.number(achieved * 100, decimals: 2))%" : "not measurable"
      var line = "  \(target.description): sampling \(figure)"
      let whole = summary.rows.filter(target.names).compactMap { row -> Double? in
        guard let interval = row.interval, abs(row.values.mean) > 0 else { return nil }
        return (interval.high - interval.low) / 2 / abs(row.values.mean)
      }.max()
      if let whole, whole > achieved + 1e-12 {
        // The sample's part first, then the whole: what more devices can narrow and what they cannot.
        line +=
          "; with the fleet's own run-to-run spread (which no sample narrows), ±"
          + "\(CSVFormat.number(whole * 100, decimals: 2))% in all"
      }
      lines.append(
        line + (SampleSizePlan.achieved(target, in: summary) <= target.relativeHalfWidth ? "" : " (not met)"))
    }
    if let next { lines.append("precision: running again with \(next) devices") }
    return lines.joined(separator: "\n")
  }
}
