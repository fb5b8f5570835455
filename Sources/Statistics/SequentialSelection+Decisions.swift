extension SequentialSelection {
  /// After `count` replications of every design in contention: the feasibility checks, then the
  /// eliminations (all judged on the same means), then whether the procedure stops.
  mutating func decide(after count: Int) {
    checkFeasibility(after: count)
    eliminate(after: count)
    stopIfDecided(after: count)
  }

  /// The feasibility triangle of design `design`'s constraint `j` after `count` replications.
  func feasibilityBound(_ design: Int, _ j: Int, after count: Int) -> Double {
    let epsilon = problem.constraints[j].tolerance
    return max(0, feasibilityH2 * constraintVariance[design][j] / (2 * epsilon) - epsilon * Double(count) / 2)
  }

  private mutating func checkFeasibility(after count: Int) {
    for design in contending {
      for j in problem.constraints.indices where feasible[design][j] == nil {
        let bound = feasibilityBound(design, j, after: count)
        if excessSums[design][j] <= -bound {
          feasible[design][j] = true
        } else if excessSums[design][j] >= bound {
          feasible[design][j] = false
          status[design] = .infeasible(constraint: j, replication: count)
          break
        }
      }
    }
  }

  /// Whether every constraint of `design` has been found met.
  public func isFeasible(_ design: Int) -> Bool { feasible[design].allSatisfy { $0 == true } }

  /// How far design `i`'s mean may fall below design `l`'s (both oriented, larger better) before `i`
  /// leaves, and the advantage the standard has in the pair, after `count` replications.
  func allowance(_ i: Int, _ l: Int, after count: Int) -> (width: Double, shift: Double) {
    let withStandard = problem.standard == i || problem.standard == l
    let delta = withStandard ? problem.indifference / 2 : problem.indifference
    let r = Double(count)
    let width = max(0, delta / (2 * r) * (h2 * pairVariance[i][l] / (delta * delta) - r))
    let shift = problem.standard == i ? delta : problem.standard == l ? -delta : 0
    return (width, shift)
  }

  /// The oriented mean of `design` after its replications.
  func orientedMean(_ design: Int) -> Double { objectiveSums[design] / Double(max(1, replications[design])) }

  private mutating func eliminate(after count: Int) {
    let designs = contending
    var leaving: [(design: Int, by: Int)] = []
    for i in designs {
      // The rival that beats i by the widest margin, among those found feasible.
      var best: (by: Int, margin: Double)?
      for l in designs where l != i && isFeasible(l) {
        let (width, shift) = allowance(i, l, after: count)
        let margin = orientedMean(l) - width - (orientedMean(i) + shift)
        if margin > 0 && margin > (best?.margin ?? 0) { best = (l, margin) }
      }
      if let best { leaving.append((i, best.by)) }
    }
    for (design, by) in leaving { status[design] = .dropped(by: by, replication: count) }
  }

  private mutating func stopIfDecided(after count: Int) {
    let designs = contending
    guard !designs.isEmpty else { return }
    if designs.count == 1, isFeasible(designs[0]) {
      status[designs[0]] = .chosen
      return
    }
    let closed =
      designs.allSatisfy(isFeasible)
      && designs.allSatisfy { i in designs.allSatisfy { l in l == i || allowance(i, l, after: count).width == 0 } }
    if closed {
      choose(among: designs, after: count)
    } else if count >= problem.maximumReplications {
      for design in designs { status[design] = .undecided }
    }
  }

  /// Every triangle among `designs` has closed: the best mean (the standard on a tie of its shifted mean)
  /// is chosen; the others are tied when within the indifference of it.
  private mutating func choose(among designs: [Int], after count: Int) {
    func score(_ design: Int) -> Double {
      orientedMean(design) + (problem.standard == design ? problem.indifference / 2 : 0)
    }
    guard let winner = designs.max(by: { score($0) < score($1) || (score($0) == score($1) && $0 > $1) }) else {
      return
    }
    status[winner] = .chosen
    for design in designs where design != winner {
      let gap = orientedMean(winner) - orientedMean(design)
      status[design] =
        gap < problem.indifference
        ? .tied(with: winner, replication: count) : .dropped(by: winner, replication: count)
    }
  }

  /// The replications a two-stage procedure would take of each design for the same guarantee, from this
  /// procedure's first-stage variances; nil before the first stage is complete. For the comparison, Rinott's
  /// max(n₀, ⌈(h·Sᵢ/δ)²⌉); with constraints, at least Stein's two-stage count for each feasibility check at
  /// its error β, max(n₀, ⌈(t₁₋β,ₙ₀₋₁·S/ε)²⌉) (Stein, Annals of Mathematical Statistics 16, 1945).
  public func twoStageReplications() -> [Int]? {
    guard !objectiveVariance.isEmpty else { return nil }
    let n0 = problem.firstStage
    let h =
      problem.designs > 1
      ? RinottConstant.h(designs: problem.designs, firstStage: n0, confidence: 1 - problem.comparisonError) : 0
    let t = ConfidenceInterval.studentQuantile(
      probability: 1 - problem.feasibilityError, degreesOfFreedom: Double(n0 - 1))
    return objectiveVariance.indices.map { design in
      var count = RinottConstant.replications(
        h: h, deviation: objectiveVariance[design].squareRoot(), indifference: problem.indifference, firstStage: n0)
      for (j, constraint) in problem.constraints.enumerated() {
        count = max(
          count,
          RinottConstant.replications(
            h: t, deviation: constraintVariance[design][j].squareRoot(), indifference: constraint.tolerance,
            firstStage: n0))
      }
      return count
    }
  }
}
