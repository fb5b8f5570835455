import SimulationEngine
import Statistics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the sequential selection's own arithmetic costs (its decisions, not the replications it asks for):
/// seven designs and one constraint, as Scenarios/sweep-update-channel.yaml selects, on outputs drawn before
/// the clock starts.
public enum SelectionBenchmark {
  static let designs = 7
  /// Replications every design takes: the cap (an indifference and a tolerance too fine to decide before it).
  static let replications = 2_000

  /// Nanoseconds per observation (one design's replication) the procedure takes and decides on.
  public static func nanosecondsPerObservation(seed: UInt64) -> Double {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed))
    // Every design alike and the zones too fine: nothing is decided before the cap, so every round decides.
    let outputs = (0..<designs).map { _ in
      (0..<replications).map { _ in
        SelectionObservation(objective: 5 + stream.uniform(), constraints: [800 + 100 * stream.uniform()])
      }
    }
    let problem = SelectionProblem(
      designs: designs, maximize: false, indifference: 1e-9, confidence: 0.95,
      constraints: [SelectionProblem.Constraint(threshold: 900, tolerance: 1e-9, atMost: true)],
      firstStage: 10, maximumReplications: replications)
    let stopwatch = Stopwatch()
    var selection = SequentialSelection(problem)
    selection.advance { design, replication in outputs[design][replication] }
    let elapsed = stopwatch.elapsedNanoseconds
    precondition(selection.finished, "the benchmark's selection must run to its cap")
    return elapsed / Double(designs * replications)
  }

  /// Nanoseconds to compute Rinott's h for seven designs (once a selection, for its two-stage count).
  public static func nanosecondsPerRinottConstant(firstStage: Int) -> Double {
    let stopwatch = Stopwatch()
    let h = RinottConstant.solve(designs: designs, firstStage: firstStage, confidence: 0.975)
    precondition(h.isFinite && h > 0, "Rinott's h must be positive")
    return stopwatch.elapsedNanoseconds
  }
}
