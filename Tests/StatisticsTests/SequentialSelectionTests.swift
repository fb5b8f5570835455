import Testing

@testable import SimulationEngine
@testable import Statistics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Designs with known true means, outputs normal with a shared part (common random numbers): each
/// replication's noise is `common` times a draw shared by every design plus its own draw.
struct SyntheticDesigns {
  let objectiveMeans: [Double]
  let constraintMeans: [Double]
  let deviation: Double
  let common: Double

  /// A standard normal draw (Box-Muller).
  static func normal(_ stream: RandomStream) -> Double {
    (-2 * log(stream.uniformPositive())).squareRoot() * cos(2 * Double.pi * stream.uniform())
  }

  /// Runs one selection with outputs drawn from `seed`; returns the procedure when finished.
  func select(_ problem: SelectionProblem, seed: UInt64) -> SequentialSelection {
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: seed))
    var outputs: [[SelectionObservation]] = Array(repeating: [], count: objectiveMeans.count)
    var selection = SequentialSelection(problem)
    while let next = selection.nextReplication {
      let shared = (SyntheticDesigns.normal(stream), SyntheticDesigns.normal(stream))
      for design in objectiveMeans.indices where outputs[design].count < next {
        let own = (SyntheticDesigns.normal(stream), SyntheticDesigns.normal(stream))
        let spread = (1 - common * common).squareRoot()
        outputs[design].append(
          SelectionObservation(
            objective: objectiveMeans[design] + deviation * (common * shared.0 + spread * own.0),
            constraints: constraintMeans.isEmpty ? [] : [constraintMeans[design] + deviation * own.1]))
      }
      selection.advance { design, replication in
        replication < outputs[design].count ? outputs[design][replication] : nil
      }
    }
    return selection
  }

  /// Over `runs` selections (seeds 1...runs): how often `best` was chosen, how often `never` was, and the
  /// mean replications used and the mean a two-stage procedure would take.
  func measure(_ problem: SelectionProblem, runs: Int, best: Int, never: Int? = nil)
    -> (correct: Int, forbidden: Int, used: Double, twoStage: Double)
  {
    var correct = 0
    var forbidden = 0
    var used = 0
    var twoStage = 0
    for seed in 1...runs {
      let selection = select(problem, seed: UInt64(seed))
      if selection.chosen == best { correct += 1 }
      if let never, selection.chosen == never { forbidden += 1 }
      used += selection.replications.reduce(0, +)
      twoStage += selection.twoStageReplications()?.reduce(0, +) ?? 0
    }
    return (correct, forbidden, Double(used) / Double(runs), Double(twoStage) / Double(runs))
  }
}

@Suite("Sequential selection")
struct SequentialSelectionTests {
  /// Independent selections per configuration: enough that the binomial lower bound of a share of 0.96
  /// is above 0.93.
  static let runs = 1_000

  static func problem(_ designs: Int, constraints: [SelectionProblem.Constraint] = [], standard: Int? = nil)
    -> SelectionProblem
  {
    SelectionProblem(
      designs: designs, maximize: false, indifference: 1, confidence: 0.95, constraints: constraints,
      standard: standard, firstStage: 10, maximumReplications: 100_000)
  }

  @Test("slippage: the best by exactly the indifference is chosen at least as often as promised")
  func slippage() {
    let designs = SyntheticDesigns(
      objectiveMeans: [11, 11, 10, 11, 11, 11], constraintMeans: [], deviation: 2, common: 0.7)
    let measured = designs.measure(Self.problem(6), runs: Self.runs, best: 2)
    let bound = BinomialBound.lower(successes: measured.correct, trials: Self.runs)
    print(
      "slippage: \(measured.correct)/\(Self.runs) correct, lower bound \(bound), replications \(measured.used) "
        + "vs two-stage \(measured.twoStage)")
    #expect(bound >= 0.95 - 0.02)
    #expect(measured.used < measured.twoStage)
  }

  @Test("spread means: the best is chosen at least as often as promised, with fewer replications")
  func spread() {
    let designs = SyntheticDesigns(
      objectiveMeans: [13, 12, 10, 11, 14, 15, 16], constraintMeans: [], deviation: 2, common: 0.7)
    let measured = designs.measure(Self.problem(7), runs: Self.runs, best: 2)
    let bound = BinomialBound.lower(successes: measured.correct, trials: Self.runs)
    print(
      "spread: \(measured.correct)/\(Self.runs) correct, lower bound \(bound), replications \(measured.used) "
        + "vs two-stage \(measured.twoStage)")
    #expect(bound >= 0.95 - 0.02)
    #expect(measured.used < measured.twoStage)
  }

  @Test("constrained slippage: a design cheaper but infeasible by twice its tolerance is never chosen")
  func constrained() {
    // Constraint: at most 15 with tolerance 1. Design 4 is the cheapest but its mean is 17 (twice the
    // tolerance outside); the others are feasible at 14 (inside by the tolerance); design 1 is the best of
    // those by exactly the indifference.
    let designs = SyntheticDesigns(
      objectiveMeans: [11, 10, 11, 11, 8], constraintMeans: [14, 14, 14, 14, 17], deviation: 2, common: 0.7)
    let constraint = SelectionProblem.Constraint(threshold: 15, tolerance: 1, atMost: true)
    let measured = designs.measure(Self.problem(5, constraints: [constraint]), runs: Self.runs, best: 1, never: 4)
    let bound = BinomialBound.lower(successes: measured.correct, trials: Self.runs)
    print(
      "constrained: \(measured.correct)/\(Self.runs) correct, lower bound \(bound), infeasible chosen "
        + "\(measured.forbidden), replications \(measured.used) vs two-stage \(measured.twoStage)")
    #expect(measured.forbidden == 0)
    #expect(bound >= 0.95 - 0.02)
    #expect(measured.used < measured.twoStage)
  }

  @Test("the standard is kept unless another design is better by the indifference")
  func standard() {
    let equal = SyntheticDesigns(objectiveMeans: [10, 10, 10.2], constraintMeans: [], deviation: 1, common: 0.5)
    let kept = equal.measure(Self.problem(3, standard: 1), runs: 50, best: 1)
    #expect(kept.correct >= 45)
    let beaten = SyntheticDesigns(objectiveMeans: [9, 10, 10.2], constraintMeans: [], deviation: 1, common: 0.5)
    let displaced = beaten.measure(Self.problem(3, standard: 1), runs: 50, best: 0)
    #expect(displaced.correct >= 45)
  }

  @Test("at the cap the designs still in contention are undecided, and none is chosen")
  func cap() {
    let designs = SyntheticDesigns(objectiveMeans: [10, 10.01], constraintMeans: [], deviation: 5, common: 0)
    let problem = SelectionProblem(
      designs: 2, maximize: false, indifference: 0.01, confidence: 0.95, firstStage: 5, maximumReplications: 20)
    let selection = designs.select(problem, seed: 3)
    #expect(selection.chosen == nil)
    #expect(selection.status == [.undecided, .undecided])
    #expect(selection.replications == [20, 20])
  }

  @Test("identical designs under common random numbers: the triangles close at the first stage")
  func identical() {
    let designs = SyntheticDesigns(objectiveMeans: [5, 5, 5], constraintMeans: [], deviation: 1, common: 1)
    let selection = designs.select(Self.problem(3), seed: 1)
    #expect(selection.status == [.chosen, .tied(with: 0, replication: 10), .tied(with: 0, replication: 10)])
  }

  @Test("Rinott's h: the large-sample limit Φ(h/√2)^(k−1) = P* and a simulation of its defining probability")
  func rinott() {
    // n0 -> infinity: Φ(h/√2) = 0.95 for k = 2 (h = 2.326), Φ(h/√2)² = 0.95 for k = 3 (h = 2.766).
    #expect(abs(RinottConstant.h(designs: 2, firstStage: 4000, confidence: 0.95) - 2.3262) < 0.01)
    #expect(abs(RinottConstant.h(designs: 3, firstStage: 4000, confidence: 0.95) - 2.7656) < 0.01)
    // For n0 = 10, k = 4: simulate P(Z ≤ h/√((n0−1)(1/X+1/Y)) for each of k−1 independent X, shared Y).
    let h = RinottConstant.h(designs: 4, firstStage: 10, confidence: 0.95)
    let stream = RandomStream(seed: StreamSeed(scenarioSeed: 5))
    func chiSquare() -> Double { (0..<9).reduce(0) { sum, _ in sum + pow(SyntheticDesigns.normal(stream), 2) } }
    let trials = 40_000
    var hits = 0
    for _ in 0..<trials {
      let y = chiSquare()
      if (0..<3).allSatisfy({ _ in SyntheticDesigns.normal(stream) <= h / (9 * (1 / chiSquare() + 1 / y)).squareRoot() }
      ) {
        hits += 1
      }
    }
    // Binomial standard error at 0.95 over 40,000 trials: 0.0011; four of them.
    #expect(abs(Double(hits) / Double(trials) - 0.95) < 0.0045)
  }
}
