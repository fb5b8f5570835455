import Reports
import SimulationEngine
import Statistics

/// Runs a sweep's selection in rounds: each round adds replications only to the designs still in
/// contention, records them in the sweep journal as they finish, and hands them to the procedure, which
/// decides replication by replication. A resumed run replays the journal's replications through the
/// procedure and so takes the same decisions; how many replications a round runs ahead (enough to keep
/// `jobs` threads busy) changes only which unused replications the journal holds, never the outcome.
struct SweepSelectionRounds {
  let plan: SweepPlan
  let setup: SweepSelectionSetup

  /// The task of point `point`'s replication `replication` (from 0).
  func task(_ point: Int, _ replication: Int) -> Int { point * setup.problem.maximumReplications + replication }

  struct MissingValue: Error, CustomStringConvertible {
    let description: String
  }

  /// The procedure after every replication in `values`, and whether a replication has no value to select by.
  func replay(_ values: [Int: [MetricValue]]) throws(MissingValue) -> SequentialSelection {
    var selection = SequentialSelection(setup.problem)
    var missing: (point: Int, replication: Int)?
    selection.advance { point, replication in
      guard let recorded = values[task(point, replication)] else { return nil }
      guard let observation = setup.observation(recorded) else {
        missing = (point, replication)
        return nil
      }
      return observation
    }
    if let missing {
      throw MissingValue(
        description: "point \(missing.point)'s replication \(missing.replication) has no value of "
          + "\(setup.objective.metric) or of a constraint's metric (nothing to measure: e.g. no views); the "
          + "selection needs one from every replication")
    }
    return selection
  }

  /// Runs rounds until the procedure finishes or `interrupted` says stop; returns the procedure and every
  /// recorded task's values.
  func run(
    journal: SweepJournal, done: [Int: [MetricValue]], jobs: Int, interrupted: @escaping @Sendable () -> Bool
  ) throws -> (selection: SequentialSelection, values: [Int: [MetricValue]]) {
    var values = done
    var selection = try replay(values)
    while !selection.finished && !interrupted() {
      guard let next = selection.nextReplication else { break }
      let contending = selection.contending
      let from = next - 1
      // The first stage whole, then enough replications a design for every thread.
      let ahead = max(setup.problem.firstStage - from, (jobs + contending.count - 1) / contending.count)
      let to = min(setup.problem.maximumReplications, from + ahead)
      let todo = contending.flatMap { point in (from..<to).map { task(point, $0) } }.filter { values[$0] == nil }
      values = try SweepRunner.run(
        todo, of: plan, total: todo.count, jobs: jobs, journal: journal, done: values, interrupted: interrupted)
      selection = try replay(values)
    }
    return (selection, values)
  }
}
