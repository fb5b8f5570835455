import SimulationEngine
import WidgetModel

/// The `select` section of a sweep: choose the best feasible design with a guaranteed probability, by a
/// fully sequential procedure (see docs/design-choice.md). Values with units are kept as written until the
/// metrics' units are known (``SweepSelectionCheck``), with the place each is written for errors.
public struct SweepSelection: Sendable {
  /// A number as written (`0.2 mWh/day`, `15m`, `60`) and where.
  public struct Quantity: Sendable {
    public let text: String
    public let place: ScenarioError

    public init(text: String, place: ScenarioError) {
      self.text = text
      self.place = place
    }
  }

  /// One constraint: a metric's mean at most (or at least) a bound, give or take a tolerance.
  public struct Constraint: Sendable {
    public let metric: String
    public let widget: String?
    public let atMost: Bool
    public let bound: Quantity
    public let tolerance: Quantity
    public let metricPlace: ScenarioError
    public let widgetPlace: ScenarioError?
  }

  public let objective: SweepObjective
  public let objectivePlaces: (metric: ScenarioError, widget: ScenarioError?)
  public let indifference: Quantity
  public let confidence: Double
  public let constraints: [Constraint]
  /// The standard's point number, when one is named.
  public let standard: Int?
  /// Replications every design gets before any is dropped.
  public let first: Int
  /// Replications per design at most.
  public let maximumReplications: Int

  public static let defaultFirst = 10
  public static let defaultMaximumReplications = 1_000
  public static let defaultConfidence = 0.95
}

extension SweepSelection {
  /// Reads `select`; `labels` are the points' labels (in point order) the standard is named by.
  static func decode(_ value: YAMLValue, labels: [String]) throws(ScenarioError) -> SweepSelection {
    var reader = try value.mapping()
    let minimize = reader.optional("minimize")
    let maximize = reader.optional("maximize")
    let widget = reader.optional("widget")
    let indifferenceValue = try reader.required("indifference", "the difference that matters, e.g. 0.2 mWh/day")
    let confidenceValue = reader.optional("confidence")
    let constraintsValue = reader.optional("constraints")
    let standardValue = reader.optional("standard")
    let firstValue = reader.optional("first")
    let maximumValue = reader.optional("max_replications")
    try reader.finish()
    guard let metricValue = minimize ?? maximize else {
      throw value.error("expected minimize: METRIC or maximize: METRIC (a metric of summary.csv)")
    }
    if minimize != nil && maximize != nil { throw value.error("give minimize or maximize, not both") }
    let objective = SweepObjective(
      metric: try metricValue.string(), widget: try widget?.string(), minimize: minimize != nil)
    let indifference = Quantity(text: try indifferenceValue.scalarText(), place: indifferenceValue.error(""))
    guard let number = SweepSelection.leadingNumber(indifference.text), number > 0 else {
      throw indifferenceValue.error(
        "the indifference must be a number above 0 in the metric's unit, e.g. 0.2 mWh/day; got \(indifference.text)")
    }
    let confidence = try confidenceValue?.number() ?? defaultConfidence
    if let confidenceValue, !(confidence > 0.5 && confidence < 1) {
      throw confidenceValue.error("the confidence must be above 0.5 and below 1, e.g. 0.95; got \(confidence)")
    }
    let first = try firstValue?.integer(in: Int.min...Int.max) ?? defaultFirst
    if let firstValue, first < 5 {
      throw firstValue.error("first must be at least 5 (the first stage estimates the variances); got \(first)")
    }
    let maximum = try maximumValue?.count(ScenarioLimits.replications) ?? max(first, defaultMaximumReplications)
    if let maximumValue, maximum < first {
      throw maximumValue.error("max_replications (\(maximum)) must not be below first (\(first))")
    }
    return SweepSelection(
      objective: objective, objectivePlaces: (metricValue.error(""), widget?.error("")), indifference: indifference,
      confidence: confidence,
      constraints: try constraintsValue.map { v throws(ScenarioError) in try decodeConstraints(v) } ?? [],
      standard: try standardValue.map { v throws(ScenarioError) in try decodeStandard(v, labels: labels) },
      first: first, maximumReplications: maximum)
  }

  /// The point a `standard` names, by its label (or, for a sweep without labels, its number).
  static func decodeStandard(_ value: YAMLValue, labels: [String]) throws(ScenarioError) -> Int {
    let name = try value.scalarText()
    if let index = labels.firstIndex(of: name) { return index }
    if labels.allSatisfy(\.isEmpty), let index = Int(name), labels.indices.contains(index) { return index }
    let named = labels.filter { !$0.isEmpty }
    throw value.error(
      "the standard '\(name)' names no point\(DidYouMean.hint(for: name, among: named))"
        + (named.isEmpty
          ? "; give a point's number, 0-\(labels.count - 1)" : "; the points are \(named.joined(separator: ", "))"))
  }

  /// The `constraints` list: `{metric, widget?, at_most | at_least, tolerance}` each.
  static func decodeConstraints(_ list: YAMLValue) throws(ScenarioError) -> [Constraint] {
    var constraints: [Constraint] = []
    for (index, node) in try list.sequence().enumerated() {
      let entry = YAMLValue(node: node, path: "\(list.path)[\(index)]", source: list.source)
      var reader = try entry.mapping()
      let metric = try reader.required("metric", "a metric of summary.csv, e.g. staleness_p95")
      let widget = reader.optional("widget")
      let atMost = reader.optional("at_most")
      let atLeast = reader.optional("at_least")
      let tolerance = try reader.required("tolerance", "how far from the bound a mean may be undecided, e.g. 1m")
      try reader.finish()
      guard let boundValue = atMost ?? atLeast else {
        throw entry.error("expected at_most: BOUND or at_least: BOUND")
      }
      if atMost != nil && atLeast != nil { throw entry.error("give at_most or at_least, not both") }
      let toleranceText = try tolerance.scalarText()
      guard let number = leadingNumber(toleranceText), number > 0 else {
        throw tolerance.error("the tolerance must be a number above 0 in the metric's unit; got \(toleranceText)")
      }
      constraints.append(
        Constraint(
          metric: try metric.string(), widget: try widget?.string(), atMost: atMost != nil,
          bound: Quantity(text: try boundValue.scalarText(), place: boundValue.error("")),
          tolerance: Quantity(text: toleranceText, place: tolerance.error("")), metricPlace: metric.error(""),
          widgetPlace: widget?.error("")))
    }
    return constraints
  }

  /// The number a quantity starts with (`0.2` of `0.2 mWh/day`), nil when it starts with none.
  static func leadingNumber(_ text: String) -> Double? {
    let trimmed = text.trimmingWhitespace
    let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }
    // `5e` of `5eh` is no number: back off letters the prefix took as an exponent.
    var candidate = Substring(digits)
    while !candidate.isEmpty, Double(candidate) == nil { candidate = candidate.dropLast() }
    return Double(candidate).flatMap { $0.isFinite ? $0 : nil }
  }
}
