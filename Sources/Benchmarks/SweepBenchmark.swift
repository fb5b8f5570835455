import Results
import Sweeps
import WidgetModel

/// The sweep runner's speed: tasks (point x replication) finished per second on one thread, each task
/// simulated and summarised as `widgetsim sweep --jobs 1` does, without the journal's file writes.
public enum SweepBenchmark {
  /// The task indices a run measures: all of them, or `limit` spread evenly over the plan so every part
  /// of the grid is represented.
  public static func tasks(of plan: SweepPlan, limit: Int?) -> [Int] {
    let count = plan.tasks.count
    guard let limit, limit < count else { return Array(0..<count) }
    return (0..<Swift.max(1, limit)).map { $0 * count / Swift.max(1, limit) }
  }

  /// Points per second over the tasks of `plan` (or `limit` of them).
  public static func pointsPerSecond(plan: SweepPlan, limit: Int? = nil) -> Double {
    let tasks = tasks(of: plan, limit: limit)
    let pool = ResultPool()
    var values = 0
    let stopwatch = Stopwatch()
    for task in tasks {
      let (point, replication) = plan.tasks[task]
      values +=
        SweepRunner.values(
          of: plan.configurations[point], replication: replication, pool: pool
        ).count
    }
    let elapsedNanoseconds = stopwatch.elapsedNanoseconds
    keepAlive(values)
    return Double(tasks.count) / (elapsedNanoseconds / 1e9)
  }
}
