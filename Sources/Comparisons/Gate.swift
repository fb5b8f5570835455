import Results

/// A regression gate on one metric: which direction is worse and how much worse is tolerated.
///
/// Written `METRIC[@WIDGET]:+TOLERANCE` (a rise is worse) or `METRIC[@WIDGET]:-TOLERANCE` (a fall is worse);
/// the tolerance is relative to the baseline mean with `%` (`joules_per_day:+5%`) or absolute in the
/// metric's unit without (`staleness_p95@headlines:+30`). A relative tolerance may carry an absolute floor,
/// `+5%+1`: the larger of 5% of the baseline mean and 1 in the metric's unit is tolerated, so a figure near
/// zero (a push wake-up's 0.02 J/day) does not fail on a change no one would notice. Without `@WIDGET` the
/// gate applies to every subject that has the metric.
public struct Gate: Sendable, Equatable, CustomStringConvertible {
  public enum Direction: Sendable, Equatable {
    /// A higher candidate value is worse (energy, staleness).
    case higherIsWorse
    /// A lower candidate value is worse (reloads granted, views).
    case lowerIsWorse
  }

  public enum Tolerance: Sendable, Equatable {
    /// A fraction of the baseline mean (0.05 for 5%).
    case relative(Double)
    /// In the metric's unit.
    case absolute(Double)
  }

  public let metric: String
  /// nil: every subject with this metric.
  public let widget: String?
  public let direction: Direction
  public let tolerance: Tolerance
  /// The least worsening tolerated, in the metric's unit, whatever the relative tolerance gives.
  public let floor: Double?

  public init(
    metric: String, widget: String? = nil, direction: Direction, tolerance: Tolerance, floor: Double? = nil
  ) {
    self.metric = metric
    self.widget = widget
    self.direction = direction
    self.tolerance = tolerance
    self.floor = floor
  }

  /// Parses `METRIC[@WIDGET]:±TOLERANCE[%[+FLOOR]]`.
  public init(parsing text: String) throws(ComparisonError) {
    let expected =
      "expected METRIC[@WIDGET]:+TOLERANCE or METRIC[@WIDGET]:-TOLERANCE, e.g. joules_per_day:+5% or "
      + "joules_per_day:+5%+1 (5%, and at least 1 J/day)"
    guard let colon = text.lastIndex(of: ":") else { throw ComparisonError("gate '\(text)': \(expected)") }
    let subject = text[..<colon]
    var rest = Substring(text[text.index(after: colon)...])
    guard let sign = rest.first, sign == "+" || sign == "-" else {
      throw ComparisonError(
        "gate '\(text)': the tolerance must start with + (a rise is worse) or - (a fall is worse); \(expected)")
    }
    rest.removeFirst()
    var floor: Double?
    if let percent = rest.firstIndex(of: "%"), rest.index(after: percent) < rest.endIndex {
      let after = rest[rest.index(after: percent)...]
      let digits = after.dropFirst()
      guard after.first == "+", digits.first?.isNumber == true || digits.first == ".",
        digits.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(digits), value.isFinite, value >= 0
      else {
        throw ComparisonError("gate '\(text)': the floor after '%' must be +NUMBER (>= 0); \(expected)")
      }
      floor = value
      rest = rest[...percent]
    }
    let relative = rest.hasSuffix("%")
    if relative { rest.removeLast() }
    guard let amount = Double(rest), amount.isFinite, amount >= 0 else {
      throw ComparisonError("gate '\(text)': tolerance '\(rest)' is not a number >= 0; \(expected)")
    }
    let parts = subject.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    guard let metric = parts.first, !metric.isEmpty, parts.count == 1 || !parts[1].isEmpty else {
      throw ComparisonError("gate '\(text)': no metric name; \(expected)")
    }
    // A renamed metric's old name still gates it (``RenamedMetric``).
    self.metric = RenamedMetric.current(String(metric))
    widget = parts.count == 2 ? String(parts[1]) : nil
    direction = sign == "+" ? .higherIsWorse : .lowerIsWorse
    tolerance = relative ? .relative(amount / 100) : .absolute(amount)
    self.floor = floor
  }

  /// The gates used when none is given: the whole phone's cost of the app (`phone_mwh_per_day`, the figure
  /// to decide on), the widgets' energy and staleness may not rise by more than 5%, nor by less than 0.28 mWh
  /// and 1 J a day (0.002% of a 13 Wh battery) and 30 s, changes below anyone's notice.
  public static let defaults: [Gate] = [
    Gate(metric: phoneCostMetric, direction: .higherIsWorse, tolerance: .relative(0.05), floor: 0.28),
    Gate(metric: "joules_per_day", direction: .higherIsWorse, tolerance: .relative(0.05), floor: 1),
    Gate(metric: "staleness_mean", direction: .higherIsWorse, tolerance: .relative(0.05), floor: 30),
  ]

  /// What the phone pays for the app a day: a default gate, left out of runs from before it existed.
  public static let phoneCostMetric = "phone_mwh_per_day"

  /// A floor for a metric in `unit` that no one would notice: a point of a 0-1 share, a tenth of a percent, a
  /// joule (0.28 mWh) a day, 30 s of staleness; 1 in any other unit.
  public static func suggestedFloor(unit: String) -> (amount: Double, meaning: String) {
    switch unit {
    case "fraction": (0.01, "one point of a 0-1 share")
    case "%", "%/day": (0.1, "a tenth of a percent")
    case "J/day": (1, "1 J a day")
    case "mWh/day": (0.28, "0.28 mWh, 1 J, a day")
    case "s": (30, "30 s")
    case "": (1, "1 in the metric's unit")
    default: (1, "1 \(unit)")
    }
  }

  public func applies(to key: ReplicationTable.Key) -> Bool {
    key.metric == metric && (widget == nil || widget == key.widget)
  }

  /// The worsening the gate tolerates, in the metric's unit, for a baseline mean.
  public func margin(baselineMean: Double) -> Double {
    switch tolerance {
    case .relative(let fraction): Swift.max(fraction * abs(baselineMean), floor ?? 0)
    case .absolute(let amount): amount
    }
  }

  /// Whether the gate's tolerance is relative only (no floor): it tolerates nothing on a baseline of 0.
  public var isRelativeWithoutFloor: Bool {
    if case .relative = tolerance { return floor == nil }
    return false
  }

  public var description: String {
    let sign = direction == .higherIsWorse ? "+" : "-"
    let amount =
      switch tolerance {
      case .relative(let fraction): "\(trimmed(fraction * 100))%"
      case .absolute(let value): trimmed(value)
      }
    let least = floor.map { "+\(trimmed($0))" } ?? ""
    return "\(metric)\(widget.map { "@\($0)" } ?? ""):\(sign)\(amount)\(least)"
  }

  private func trimmed(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))" : "\(value)"
  }
}
