/// The fully sequential selection of the best feasible design, valid under common random numbers: the KN
/// procedure (Kim & Nelson, "A fully sequential procedure for indifference-zone selection in simulation",
/// ACM TOMACS 11, 2001) with the feasibility check of the constrained procedures (Andradóttir & Kim, Naval
/// Research Logistics 57, 2010; Batur & Kim, INFORMS J. Computing 22, 2010).
///
/// Every design still in contention takes replication r + 1 together; after each replication:
/// - each constraint not yet decided compares the sum of its excesses over the threshold, Σ(Y − q), with the
///   triangle ±R(r), R(r) = max(0, h_F²·S²/(2ε) − ε·r/2): below −R the design is feasible, above +R it is
///   infeasible and leaves;
/// - design i leaves when a design l already found feasible has a mean better by more than
///   W_il(r) = max(0, δ/(2r)·(h²·S²_il/δ² − r)), S²_il the variance of the paired differences X_i − X_l
///   over the first n₀ replications (so common random numbers narrow the triangle);
/// - against the standard, the triangle is centred on δ/2 in the standard's favour and drawn for δ/2, so a
///   design no better than the standard leaves and one better by δ displaces it.
/// It stops when one feasible design is left, when every triangle among those left has closed (the best
/// mean wins; others within δ of it are tied), when none is feasible, or at the cap.
///
/// A value: ``advance(_:)`` replays the replications it is given, so a run resumed from recorded values
/// takes the same decisions as one never stopped.
public struct SequentialSelection: Sendable {
  /// Where a design stands.
  public enum Status: Sendable, Equatable {
    case contending
    case chosen
    /// Worse than `by` by more than the triangle allows, found at replication `replication`.
    case dropped(by: Int, replication: Int)
    /// Left when the triangles closed, its mean within the indifference of the chosen design's.
    case tied(with: Int, replication: Int)
    case infeasible(constraint: Int, replication: Int)
    /// Still in contention at the cap.
    case undecided
  }

  public let problem: SelectionProblem
  public internal(set) var status: [Status]
  /// Replications each design has taken.
  public private(set) var replications: [Int]
  /// Per design and constraint: nil while undecided.
  public internal(set) var feasible: [[Bool?]]
  /// The first stage's variance of each paired difference of objectives, and of each constraint's output.
  public private(set) var pairVariance: [[Double]] = []
  public private(set) var constraintVariance: [[Double]] = []
  /// The first stage's variance of each design's own objective (for Rinott's two-stage count).
  public private(set) var objectiveVariance: [Double] = []
  var objectiveSums: [Double]
  var excessSums: [[Double]]
  private var firstStage: [[SelectionObservation]]
  let h2: Double
  let feasibilityH2: Double

  public init(_ problem: SelectionProblem) {
    self.problem = problem
    let k = problem.designs
    status = Array(repeating: .contending, count: k)
    replications = Array(repeating: 0, count: k)
    feasible = Array(repeating: Array(repeating: nil, count: problem.constraints.count), count: k)
    objectiveSums = Array(repeating: 0, count: k)
    excessSums = Array(repeating: Array(repeating: 0, count: problem.constraints.count), count: k)
    firstStage = Array(repeating: [], count: k)
    h2 = problem.comparisonH2
    feasibilityH2 = problem.feasibilityH2
  }

  /// Whether the procedure has stopped.
  public var finished: Bool { !status.contains(.contending) }

  /// The designs in contention: each takes the next replication.
  public var contending: [Int] { status.indices.filter { status[$0] == .contending } }

  /// The replication every design in contention takes next (1-based count), nil when finished.
  public var nextReplication: Int? { finished ? nil : (contending.first.map { replications[$0] + 1 }) }

  /// The chosen design, if any.
  public var chosen: Int? { status.firstIndex(of: .chosen) }

  /// Takes replications while `observation(design, replication)` (replication from 0) has them for every
  /// design in contention, deciding after each; stops when it lacks one or the procedure has finished.
  public mutating func advance(_ observation: (Int, Int) -> SelectionObservation?) {
    while !finished {
      let designs = contending
      let r = replications[designs[0]]
      var taken: [SelectionObservation] = []
      for design in designs {
        guard let value = observation(design, r) else { return }
        taken.append(value)
      }
      for (design, value) in zip(designs, taken) { take(value, design: design) }
      let count = r + 1
      if count == problem.firstStage { estimateVariances() }
      if count >= problem.firstStage { decide(after: count) }
    }
  }

  private mutating func take(_ value: SelectionObservation, design: Int) {
    replications[design] += 1
    objectiveSums[design] += oriented(value.objective)
    for (j, constraint) in problem.constraints.enumerated() {
      excessSums[design][j] += constraint.excess(value.constraints[j])
    }
    if replications[design] <= problem.firstStage { firstStage[design].append(value) }
  }

  /// The objective with larger better.
  private func oriented(_ value: Double) -> Double { problem.maximize ? value : -value }

  private mutating func estimateVariances() {
    let k = problem.designs
    func variance(_ values: [Double]) -> Double {
      let mean = values.reduce(0, +) / Double(values.count)
      return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
    }
    pairVariance = (0..<k).map { i in
      (0..<k).map { l in
        variance(zip(firstStage[i], firstStage[l]).map { oriented($0.objective) - oriented($1.objective) })
      }
    }
    constraintVariance = (0..<k).map { i in
      problem.constraints.indices.map { j in variance(firstStage[i].map { $0.constraints[j] }) }
    }
    objectiveVariance = (0..<k).map { i in variance(firstStage[i].map(\.objective)) }
  }

  /// The mean of design `design`'s objective (as measured, not oriented).
  public func mean(_ design: Int) -> Double {
    let mean = objectiveSums[design] / Double(max(1, replications[design]))
    return problem.maximize ? mean : -mean
  }
}

/// One replication's outputs of one design: the objective and each constraint's metric, in the order of
/// ``SelectionProblem/constraints``.
public struct SelectionObservation: Sendable, Equatable {
  public let objective: Double
  public let constraints: [Double]

  public init(objective: Double, constraints: [Double] = []) {
    self.objective = objective
    self.constraints = constraints
  }
}
