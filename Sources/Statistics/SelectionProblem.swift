#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a sequential selection of the best feasible design is asked: how many designs, which way is better,
/// the difference that matters, the probability promised, the constraints a chosen design must meet, an
/// optional standard to keep unless beaten, the first stage and the cap.
public struct SelectionProblem: Sendable, Equatable {
  /// A bound on one output: its mean at most (or at least) `threshold`; a design whose mean is inside by
  /// `tolerance` must be found feasible, one outside by `tolerance` infeasible, with the promised probability.
  public struct Constraint: Sendable, Equatable {
    public let threshold: Double
    public let tolerance: Double
    public let atMost: Bool

    public init(threshold: Double, tolerance: Double, atMost: Bool) {
      self.threshold = threshold
      self.tolerance = tolerance
      self.atMost = atMost
    }

    /// How far `value` is on the wrong side of the threshold (negative: inside).
    @inlinable func excess(_ value: Double) -> Double { atMost ? value - threshold : threshold - value }
  }

  public let designs: Int
  public let maximize: Bool
  /// δ, in the objective's unit, > 0.
  public let indifference: Double
  /// The probability of a correct selection promised, in (0.5, 1).
  public let confidence: Double
  public let constraints: [Constraint]
  /// A design kept unless another is better by the indifference.
  public let standard: Int?
  /// n₀: replications every design gets before any is dropped (>= 2).
  public let firstStage: Int
  /// Replications per design past which the procedure stops and says what is undecided.
  public let maximumReplications: Int

  public init(
    designs: Int, maximize: Bool, indifference: Double, confidence: Double, constraints: [Constraint] = [],
    standard: Int? = nil, firstStage: Int, maximumReplications: Int
  ) {
    self.designs = designs
    self.maximize = maximize
    self.indifference = indifference
    self.confidence = confidence
    self.constraints = constraints
    self.standard = standard
    self.firstStage = firstStage
    self.maximumReplications = max(firstStage, maximumReplications)
  }

  /// The error allowed the comparison: all of 1 − confidence without constraints, half with them (the other
  /// half goes to the feasibility checks).
  public var comparisonError: Double { (1 - confidence) / (constraints.isEmpty ? 1 : 2) }

  /// The error of one feasibility check (one design, one constraint): half of 1 − confidence shared by
  /// every design and constraint (Bonferroni).
  public var feasibilityError: Double {
    (1 - confidence) / 2 / Double(max(1, designs * constraints.count))
  }

  /// h² of a fully sequential triangle whose one-sided error is `error` after `firstStage` replications
  /// (Kim & Nelson 2001, with c = 1): h² = 2η(n₀ − 1), η = ½[(2·error)^(−2/(n₀−1)) − 1].
  public static func triangleH2(error: Double, firstStage: Int) -> Double {
    let degrees = Double(firstStage - 1)
    let eta = 0.5 * (pow(2 * error, -2 / degrees) - 1)
    return 2 * eta * degrees
  }

  /// h² of each pairwise comparison: the comparison's error split over the k − 1 rivals of the best.
  public var comparisonH2: Double {
    SelectionProblem.triangleH2(error: comparisonError / Double(max(1, designs - 1)), firstStage: firstStage)
  }

  /// h² of each feasibility check.
  public var feasibilityH2: Double { SelectionProblem.triangleH2(error: feasibilityError, firstStage: firstStage) }
}
