import Dispatch
import Reports
import Results
import SimulationEngine
import Synchronization
import WidgetModel

/// Runs a sweep's tasks over threads, recording each in the journal as it finishes.
public enum SweepRunner {
  /// The metric values of one task: the run summary's metrics for that replication of that point.
  /// `pool` keeps finished results for the next tasks, to reuse their memory.
  public static func values(
    of configuration: ScenarioConfiguration, replication: Int, pool: ResultPool
  ) -> [MetricValue] {
    let result = ScenarioRunner.runReplication(configuration, replication: replication, pool: pool)
    defer { pool.give(result) }
    return RunSummary.Accumulator(subjects: RunSummary.Subjects(configuration)).values(of: result)
  }

  /// Runs the tasks not yet in `done` (of the given shard) over `jobs` threads, stopping early (after the
  /// tasks in hand) when `interrupted` says so. Returns every finished task's values.
  public static func run(
    _ plan: SweepPlan, shard: (index: Int, count: Int)?, jobs: Int, journal: SweepJournal,
    done: [Int: [MetricValue]], interrupted: @escaping @Sendable () -> Bool,
    progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)? = nil
  ) throws -> [Int: [MetricValue]] {
    try run(
      plan.tasks(shard: shard).filter { done[$0] == nil }, of: plan, total: plan.tasks(shard: shard).count, jobs: jobs,
      journal: journal, done: done, interrupted: interrupted, progress: progress)
  }

  /// Runs the tasks `todo` of `plan` over `jobs` threads, recording each; returns them with those `done`.
  /// `progress` counts finished tasks against `total`.
  public static func run(
    _ todo: [Int], of plan: SweepPlan, total: Int, jobs: Int, journal: SweepJournal, done: [Int: [MetricValue]],
    interrupted: @escaping @Sendable () -> Bool, progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)? = nil
  ) throws -> [Int: [MetricValue]] {
    let next = Atomic<Int>(0)
    let finished = Mutex<[Int: [MetricValue]]>(done)
    let failure = Mutex<SweepJournal.JournalError?>(nil)
    let pool = ResultPool()
    DispatchQueue.concurrentPerform(iterations: Swift.max(1, Swift.min(jobs, todo.count))) { _ in
      while !interrupted() {
        let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard position < todo.count else { return }
        let task = todo[position]
        let (point, replication) = plan.tasks[task]
        let values = values(of: plan.configurations[point], replication: replication, pool: pool)
        do throws(SweepJournal.JournalError) {
          try journal.record(task: task, values: values)
        } catch {
          failure.withLock { $0 = error }
          return
        }
        let count = finished.withLock { results in
          results[task] = values
          return results.count
        }
        progress?(count, total)
      }
    }
    if let error = failure.withLock({ $0 }) { throw error }
    return finished.withLock { $0 }
  }
}
