import SimulationEngine
import Statistics

/// `run --precision METRIC[@SUBJECT]:P%`: replications go on until the 95% confidence interval of the
/// metric's mean is at most P% of the mean either way (its half-width over the absolute mean), for the
/// named subject or, without one, every subject that has the metric.
///
/// A row whose every replication gave the same value (zero spread) meets any target; a row with a mean of
/// zero and some spread never does (nothing relative to zero is small), nor does a row with no values.
public struct PrecisionTarget: Sendable, Equatable, CustomStringConvertible {
  public let metric: String
  /// A widget instance, `device`, `server`... (the `widget` column of summary.csv); nil for every one.
  public let subject: String?
  /// The largest half-width allowed, as a share of the mean's magnitude (0.05 for `5%`).
  public let relativeHalfWidth: Double

  /// Parses `METRIC[@SUBJECT]:P%` with 0 < P <= 100; nil otherwise.
  public init?(_ text: String) {
    guard let colon = text.lastIndex(of: ":") else { return nil }
    let name = text[..<colon]
    let share = text[text.index(after: colon)...]
    guard share.hasSuffix("%"), let percent = Double(share.dropLast()), percent > 0, percent <= 100 else {
      return nil
    }
    let parts = name.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    guard let first = parts.first, !first.isEmpty, parts.count == 1 || !parts[1].isEmpty else { return nil }
    metric = String(first)
    subject = parts.count == 2 ? String(parts[1]) : nil
    relativeHalfWidth = percent / 100
  }

  public var description: String {
    "\(metric)\(subject.map { "@\($0)" } ?? ""):\(CSVFormat.number(relativeHalfWidth * 100, decimals: 2))%"
  }

  /// Whether `keys` (a run's summary rows, `metric` and `widget`) have a row this target names.
  public func applies(to keys: [(metric: String, widget: String)]) -> Bool {
    keys.contains { $0.metric == metric && (subject == nil || $0.widget == subject) }
  }

  /// Why `keys` (a run's summary rows, `metric` and `widget`) have no row this target names, with the nearest
  /// names to a misspelt metric or subject; nil when they have one.
  public func refusal(keys: [(metric: String, widget: String)]) -> String? {
    if applies(to: keys) { return nil }
    func unique(_ names: [String]) -> [String] {
      var seen: Set<String> = []
      return names.filter { seen.insert($0).inserted }
    }
    let metrics = unique(keys.map(\.metric))
    guard let subject, metrics.contains(metric) else {
      let near = DidYouMean.nearest(to: metric, among: metrics)
      // The nearest names, not every one of a hundred: the rest are summary.csv's metric column.
      guard near.isEmpty else {
        return "the run has no summary row \(metric) (did you mean \(DidYouMean.alternatives(near))?)"
      }
      let sorted = metrics.sorted()
      let listed =
        sorted.prefix(10).joined(separator: ", ")
        + (sorted.count > 10 ? " and \(sorted.count - 10) more (summary.csv's metric column)" : "")
      return "the run has no summary row \(metric); metrics: \(listed)"
    }
    let subjects = unique(keys.filter { $0.metric == metric }.map(\.widget))
    let near = DidYouMean.nearest(to: subject, among: subjects)
    let hint = near.isEmpty ? "" : " (did you mean \(DidYouMean.alternatives(near))?)"
    let listed =
      subjects.prefix(10).joined(separator: ", ") + (subjects.count > 10 ? " and \(subjects.count - 10) more" : "")
    return "the run has no summary row \(metric) for '\(subject)'\(hint); its subjects: \(listed)"
  }

  /// The largest relative half-width over the rows the target names (infinity when one cannot be
  /// measured yet: fewer than two replications, no values, or a zero mean with spread).
  public func achieved(in summary: RunSummary) -> Double {
    var worst = 0.0
    for row in summary.rows where names(row) {
      worst = Swift.max(worst, PrecisionTarget.relativeHalfWidth(row.values))
    }
    return worst
  }

  /// Whether the target names `row` (its metric, and its subject if the target has one).
  public func names(_ row: RunSummary.Row) -> Bool { row.metric == metric && (subject == nil || row.widget == subject) }

  /// Whether every row the target names is within it.
  public func isMet(in summary: RunSummary) -> Bool { achieved(in: summary) <= relativeHalfWidth }

  /// A row's 95% half-width over its absolute mean.
  static func relativeHalfWidth(_ values: RunningStatistics) -> Double {
    guard let interval = ConfidenceInterval(values) else { return .infinity }
    if interval.halfWidth == 0 { return 0 }
    let magnitude = abs(interval.mean)
    return magnitude > 0 ? interval.halfWidth / magnitude : .infinity
  }
}

/// How `run --precision` chooses the number of replications: the scenario's replications first (at least
/// ``minimum``), then batches of ``batch`` until every target is met or ``maximum`` ran. Targets are checked
/// only after whole batches, so for a given seed the count is the same whatever `--jobs` or an
/// interruption and `--resume`.
public struct PrecisionPlan: Sendable, Equatable {
  public var targets: [PrecisionTarget]
  public var minimum: Int
  public var batch: Int
  public var maximum: Int

  /// Replications before the first check, whatever the scenario asks for: two give no interval worth
  /// trusting.
  public static let smallestMinimum = 5
  public static let defaultBatch = 10
  public static let defaultMaximum = 1_000

  public init(targets: [PrecisionTarget], minimum: Int, batch: Int = defaultBatch, maximum: Int = defaultMaximum) {
    self.targets = targets
    self.minimum = Swift.min(Swift.max(minimum, PrecisionPlan.smallestMinimum), maximum)
    self.batch = Swift.max(1, batch)
    self.maximum = maximum
  }

  /// The replications to have run before the next check, after `completed`.
  public func nextCheck(after completed: Int) -> Int {
    guard completed >= minimum else { return minimum }
    return Swift.min(maximum, minimum + ((completed - minimum) / batch + 1) * batch)
  }

  /// Whether the run may stop after `completed` replications with `summary`: every target met at a check,
  /// or the maximum reached.
  public func isDone(completed: Int, summary: RunSummary) -> Bool {
    if completed >= maximum { return true }
    guard completed >= minimum, (completed - minimum) % batch == 0 else { return false }
    return targets.allSatisfy { $0.isMet(in: summary) }
  }

  /// One line per target: what it reached after `completed` replications.
  public func report(_ summary: RunSummary, completed: Int) -> String {
    let reached = targets.allSatisfy { $0.isMet(in: summary) }
    var lines = [
      reached
        ? "precision: every target met after \(completed) replications"
        : "precision: warning: not every target met after \(completed) replications (the maximum, "
          + "--max-replications \(maximum))"
    ]
    for target in targets {
      let achieved = target.achieved(in: summary)
      let figure = achieved.isFinite ? "±\(CSVFormat.number(achieved * 100, decimals: 2))%" : "not measurable"
      lines.append("  \(target.description): \(figure)\(target.isMet(in: summary) ? "" : " (not met)")")
    }
    return lines.joined(separator: "\n")
  }
}
