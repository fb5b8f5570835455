import CommandSupport
import Reports
import ScenarioFiles
import SimulationEngine
import Statistics

/// A sweep's `select` section made ready to run: its metrics found among the summary's rows, its quantities
/// in the metrics' units, and the problem the sequential procedure solves. Everything is checked before a
/// replication runs.
public struct SweepSelectionSetup: Sendable {
  /// A summary row the selection reads: its metric, subject and unit.
  public struct Row: Sendable, Equatable {
    public let metric: String
    public let widget: String
    public let unit: String
  }

  public let selection: SweepSelection
  public let problem: SelectionProblem
  public let objective: Row
  /// Each constraint's row, in the order of ``SelectionProblem/constraints``.
  public let constraints: [Row]

  /// The setup of `sweep`'s selection, nil without one; bad input (an unknown metric or subject, a unit
  /// that does not fit) fails with exit 2, naming file, line and column.
  public static func make(_ sweep: LoadedSweep) throws(CommandFailure) -> SweepSelectionSetup? {
    guard let selection = sweep.specification.selection else { return nil }
    let rows = RunSummary.Accumulator(subjects: RunSummary.Subjects(sweep.configurations[0])).rowLabels.map {
      Row(metric: $0.metric, widget: $0.widget, unit: $0.unit)
    }
    let objective = try find(
      selection.objective.metric, selection.objective.widget, rows: rows,
      places: (selection.objectivePlaces.metric, selection.objectivePlaces.widget))
    let delta = try quantity(selection.indifference, objective, what: "indifference")
    var constraints: [Row] = []
    var bounds: [SelectionProblem.Constraint] = []
    for constraint in selection.constraints {
      let row = try find(
        constraint.metric, constraint.widget, rows: rows, places: (constraint.metricPlace, constraint.widgetPlace))
      constraints.append(row)
      bounds.append(
        SelectionProblem.Constraint(
          threshold: try quantity(constraint.bound, row, what: constraint.atMost ? "at_most" : "at_least"),
          tolerance: try quantity(constraint.tolerance, row, what: "tolerance"), atMost: constraint.atMost))
    }
    let problem = SelectionProblem(
      designs: sweep.points.count, maximize: !selection.objective.minimize, indifference: delta,
      confidence: selection.confidence, constraints: bounds, standard: selection.standard,
      firstStage: selection.first, maximumReplications: selection.maximumReplications)
    return SweepSelectionSetup(selection: selection, problem: problem, objective: objective, constraints: constraints)
  }

  /// The row of `metric` (for `widget`, or its first subject), or a refusal at `places` with a did-you-mean.
  static func find(
    _ metric: String, _ widget: String?, rows: [Row], places: (metric: ScenarioError, widget: ScenarioError?)
  ) throws(CommandFailure) -> Row {
    let metrics = rows.map(\.metric).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    guard metrics.contains(metric) else {
      throw refusal(places.metric, "no metric \(metric) in summary.csv", word: metric, among: metrics)
    }
    let subjects = rows.filter { $0.metric == metric }
    guard let widget else { return subjects[0] }
    if let row = subjects.first(where: { $0.widget == widget }) { return row }
    throw refusal(
      places.widget ?? places.metric,
      "\(metric) has no row for \(widget); it has \(subjects.map(\.widget).joined(separator: ", "))", word: widget,
      among: subjects.map(\.widget))
  }

  /// `quantity` in `row`'s unit, or a refusal naming the unit it should have.
  static func quantity(_ quantity: SweepSelection.Quantity, _ row: Row, what: String) throws(CommandFailure) -> Double {
    guard let value = quantity.value(in: row.unit) else {
      throw refusal(
        quantity.place,
        "\(what) '\(quantity.text)' does not fit \(row.metric), whose unit is \(row.unit) (write e.g. 1 \(row.unit))",
        word: "", among: [])
    }
    return value
  }

  static func refusal(_ place: ScenarioError, _ message: String, word: String, among: [String]) -> CommandFailure {
    let hint = DidYouMean.suggestion(for: word, among: among).map { " (did you mean \($0)?)" } ?? ""
    return .badInput(
      ScenarioError(
        file: place.file, line: place.line, column: place.column, keyPath: place.keyPath, message: message + hint,
        override: place.override
      ).description)
  }

  /// One replication's observation from its summary values; nil when a value is missing or not a number
  /// (the caller refuses: the procedure needs every value).
  public func observation(_ values: [MetricValue]) -> SelectionObservation? {
    func value(_ row: Row) -> Double? {
      values.first { $0.metric == row.metric && $0.widget == row.widget }.map(\.value).flatMap {
        $0.isFinite ? $0 : nil
      }
    }
    guard let objective = value(objective) else { return nil }
    var constraintValues: [Double] = []
    for row in constraints {
      guard let number = value(row) else { return nil }
      constraintValues.append(number)
    }
    return SelectionObservation(objective: objective, constraints: constraintValues)
  }
}
