import Reports
import SimulationEngine
import Statistics

/// What a finished selection says: the verdict in one sentence, each design's status, replications and
/// mean with its 95% interval, and the replications used against a two-stage procedure's; as console lines
/// and as `selection.csv`. Everything but the time is a function of the recorded replications, so the file
/// is the same for any `--jobs` and after a resumed run.
struct SweepSelectionReport {
  static let file = "selection.csv"

  let setup: SweepSelectionSetup
  let selection: SequentialSelection
  /// Each point's label (or its settings, without labels), in point order.
  let names: [String]
  /// Per design: the objective's interval, then each constraint's, over the replications it took.
  let intervals: [[(mean: Double, low: Double, high: Double)]]

  init(setup: SweepSelectionSetup, selection: SequentialSelection, names: [String], values: [Int: [MetricValue]]) {
    self.setup = setup
    self.selection = selection
    self.names = names
    let rows = [setup.objective] + setup.constraints
    let cap = setup.problem.maximumReplications
    intervals = names.indices.map { point in
      rows.map { row in
        let series = (0..<selection.replications[point]).compactMap { replication in
          values[point * cap + replication]?.first { $0.metric == row.metric && $0.widget == row.widget }?.value
        }
        let statistics = RunningStatistics(series)
        let interval = ConfidenceInterval(statistics)
        return (statistics.mean, interval?.low ?? .nan, interval?.high ?? .nan)
      }
    }
  }

  var direction: String { setup.problem.maximize ? "higher" : "lower" }

  /// A figure with its unit: `0.2 mWh/day`, `900 s`.
  func shown(_ value: Double, _ unit: String) -> String { "\(CSVFormat.trimmed(CSVFormat.number(value))) \(unit)" }

  /// The verdict: the chosen design and the guarantee, or what is undecided and why.
  var verdict: String {
    let problem = setup.problem
    let percent = CSVFormat.trimmed(CSVFormat.number(problem.confidence * 100, decimals: 2))
    let delta = shown(problem.indifference, setup.objective.unit)
    let feasible = setup.constraints.isEmpty ? "" : " feasible"
    if let chosen = selection.chosen {
      let keep =
        problem.standard == chosen
        ? "the standard \(names[chosen]) is kept" : "\(names[chosen]) is the best\(feasible) design"
      return "\(keep): with probability at least \(percent)%, no other\(feasible) design has a \(direction) "
        + "\(setup.objective.metric) by \(delta) or more"
    }
    let undecided = selection.status.indices.filter { selection.status[$0] == .undecided }
    if undecided.isEmpty {
      return "no design is feasible: every one was found to break a constraint (see each design's status)"
    }
    let pending = undecided.filter { !selection.isFeasible($0) }
    return "undecided after \(problem.maximumReplications) replications a design (max_replications): "
      + undecided.map { names[$0] }.joined(separator: ", ") + " are still in contention"
      + (pending.isEmpty
        ? " (their differences are not yet told apart from the indifference \(delta))"
        : "; the feasibility of " + pending.map { names[$0] }.joined(separator: ", ") + " is not yet decided")
  }

  /// A design's status in words, for the console.
  func status(_ point: Int) -> String {
    switch selection.status[point] {
    case .chosen: problem.standard == point ? "kept (the standard)" : "chosen"
    case .dropped(let by, let replication): "dropped at replication \(replication): worse than \(names[by])"
    case .tied(let with, let replication):
      "tied with \(names[with]) within the indifference at replication \(replication) (the \(direction) mean was chosen)"
    case .infeasible(let constraint, let replication):
      "infeasible on \(setup.constraints[constraint].metric) at replication \(replication)"
    case .undecided: "undecided at the cap"
    case .contending: "in contention"
    }
  }

  var problem: SelectionProblem { setup.problem }

  /// The status as one word and its details, for the CSV.
  func statusCells(_ point: Int) -> (status: String, by: String, replication: String, constraint: String) {
    switch selection.status[point] {
    case .chosen: ("chosen", "", "", "")
    case .dropped(let by, let r): ("dropped", "\(by)", "\(r)", "")
    case .tied(let with, let r): ("tied", "\(with)", "\(r)", "")
    case .infeasible(let j, let r): ("infeasible", "", "\(r)", setup.constraints[j].metric)
    case .undecided: ("undecided", "", "", "")
    case .contending: ("contending", "", "", "")
    }
  }

  /// The console's lines; `seconds` is the selection's wall time.
  func lines(seconds: Double) -> [String] {
    let objective = setup.objective
    var lines = [
      "selection (\(objective.metric) of \(objective.widget), \(direction) is better; indifference "
        + "\(shown(problem.indifference, objective.unit)); confidence \(CSVFormat.trimmed(CSVFormat.number(problem.confidence)))"
        + setup.constraints.enumerated().map { j, row in
          let c = problem.constraints[j]
          return "; \(row.metric) of \(row.widget) \(c.atMost ? "at most" : "at least") \(shown(c.threshold, row.unit))"
            + " (tolerance \(shown(c.tolerance, row.unit)))"
        }.joined() + "):",
      verdict,
    ]
    for point in names.indices {
      let interval = intervals[point][0]
      lines.append(
        "  \(point) \(names[point]): \(status(point)); \(selection.replications[point]) replications, "
          + "\(CSVFormat.trimmed(CSVFormat.number(interval.mean))) [\(CSVFormat.trimmed(CSVFormat.number(interval.low))), "
          + "\(CSVFormat.trimmed(CSVFormat.number(interval.high)))] \(objective.unit)")
    }
    let used = selection.replications.reduce(0, +)
    let twoStage = selection.twoStageReplications()?.reduce(0, +)
    lines.append(
      "replications: \(used) used"
        + (twoStage.map { "; a two-stage procedure would need \($0) for the same guarantee (\(twoStageName))" } ?? "")
        + "; \(CSVFormat.trimmed(CSVFormat.number(seconds, decimals: 1))) s (\(SweepSelectionReport.file))")
    return lines
  }

  var twoStageName: String {
    setup.constraints.isEmpty ? "Rinott's" : "Rinott's for the comparison, Stein's for the feasibility checks"
  }

  /// `selection.csv`: one row per design.
  var csv: String {
    var header = [
      "point", "point_label", "status", "decided_by_point", "decided_at_replication", "infeasible_on", "replications",
      "two_stage_replications", "metric", "widget", "unit", "mean", "ci_low", "ci_high",
    ]
    for j in setup.constraints.indices {
      let n = "constraint\(j + 1)"
      header += ["\(n)_metric", "\(n)_widget", "\(n)_unit", "\(n)_bound", "\(n)_at_most", "\(n)_tolerance"]
      header += ["\(n)_mean", "\(n)_ci_low", "\(n)_ci_high", "\(n)_feasible"]
    }
    var text = header.joined(separator: ",") + "\n"
    let twoStage = selection.twoStageReplications()
    func number(_ value: Double) -> String {
      value.isFinite ? CSVFormat.trimmed(CSVFormat.number(value, decimals: 6)) : ""
    }
    for point in names.indices {
      let cells = statusCells(point)
      var row = [
        "\(point)", CSVFormat.text(names[point]), cells.status, cells.by, cells.replication,
        CSVFormat.text(cells.constraint), "\(selection.replications[point])", twoStage.map { "\($0[point])" } ?? "",
        CSVFormat.text(setup.objective.metric), CSVFormat.text(setup.objective.widget),
        CSVFormat.text(setup.objective.unit),
      ]
      row += [intervals[point][0].mean, intervals[point][0].low, intervals[point][0].high].map(number)
      for (j, constraint) in setup.constraints.enumerated() {
        let bound = problem.constraints[j]
        let interval = intervals[point][j + 1]
        let feasible = selection.feasible[point][j].map { $0 ? "yes" : "no" } ?? "undecided"
        row += [CSVFormat.text(constraint.metric), CSVFormat.text(constraint.widget), CSVFormat.text(constraint.unit)]
        row += [number(bound.threshold), bound.atMost ? "true" : "false", number(bound.tolerance)]
        row += [number(interval.mean), number(interval.low), number(interval.high), feasible]
      }
      text += row.joined(separator: ",") + "\n"
    }
    return text
  }
}
