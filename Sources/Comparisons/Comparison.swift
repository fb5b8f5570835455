import SimulationEngine

/// Two runs' metrics side by side: for every metric both have, the difference with its test, and for the
/// gated ones whether the candidate is significantly worse than the baseline beyond the gate's tolerance.
public struct Comparison: Sendable {
  /// One metric of one subject.
  public struct Row: Sendable {
    public let key: ReplicationTable.Key
    public let unit: String
    /// nil when a side has fewer than two replications with a value.
    public let test: DifferenceTest?
    public let gate: Gate?
    /// One-sided p-value of "worse by no more than the tolerance", adjusted for the number of gated metrics
    /// by the comparison's correction: the verdict is FAIL when it is at most alpha. nil when not gated.
    public let gatePValue: Double?
    public let verdict: Verdict
  }

  public enum Verdict: String, Sendable {
    /// Gated, and significantly worse beyond the tolerance.
    case fail
    /// Gated, and not shown to be worse beyond the tolerance.
    case pass
    /// Not gated.
    case none = ""
  }

  public let baseline: ReplicationTable
  public let candidate: ReplicationTable
  public let rows: [Row]
  /// Significance level of the gates' tests.
  public let alpha: Double
  /// How the gates' p-values are corrected for testing several gates at once.
  public let correction: MultipleTestCorrection
  /// Whether the tests were paired (same seed and replications on both sides).
  public let paired: Bool
  /// Metrics only one side has (not gated, so not an error), for the record.
  public let onlyInBaseline: [ReplicationTable.Key]
  public let onlyInCandidate: [ReplicationTable.Key]

  /// Things the reader should know before trusting the verdict: unpaired runs of different sizes, gates
  /// on a baseline without spread.
  public let warnings: [String]

  public var failures: [Row] { rows.filter { $0.verdict == .fail } }
  public var gated: [Row] { rows.filter { $0.gate != nil } }
  /// The ungated metrics that changed significantly (two-sided p < alpha).
  public var ungatedChanges: [Row] {
    rows.filter { $0.gate == nil && ($0.test.map { $0.pValue < alpha } ?? false) }
  }

  /// Refuses a gate that matches no row of `baseline`, as the comparison would (a gated row must be in both
  /// runs): `check` calls it before its run, so a mistyped gate fails at once.
  public static func checkGates(_ gates: [Gate], against baseline: ReplicationTable) throws(ComparisonError) {
    for gate in gates {
      guard baseline.keys.contains(where: gate.applies) else {
        if Gate.defaults.contains(gate) && gate.metric == Gate.phoneCostMetric { continue }
        throw unmatched(gate, keys: baseline.keys, place: "in \(baseline.path)")
      }
      for key in baseline.keys where gate.applies(to: key) {
        guard gate.isRelativeWithoutFloor, let series = baseline.series[key], !series.values.isEmpty,
          series.values.values.allSatisfy({ $0 == 0 })
        else { continue }
        throw zeroBaseline(gate, key, unit: series.unit)
      }
    }
  }

  /// A relative tolerance without a floor on a baseline mean of 0 tolerates nothing: the refusal, with a floor
  /// in the metric's own scale (a share's 0.01, not 1, which would switch a 0-1 gate off).
  static func zeroBaseline(_ gate: Gate, _ key: ReplicationTable.Key, unit: String) -> ComparisonError {
    let floor = Gate.suggestedFloor(unit: unit)
    let suggested = Gate(
      metric: gate.metric, widget: gate.widget, direction: gate.direction, tolerance: gate.tolerance,
      floor: floor.amount)
    return ComparisonError(
      "gate \(gate): the baseline mean of \(key.metric) (\(key.widget)) is 0, so a relative tolerance tolerates "
        + "no change at all; give a floor in the metric's unit, e.g. \(suggested) (\(floor.meaning)), or an "
        + "absolute tolerance")
  }

  /// Compares `candidate` with `baseline`. Throws (bad input, exit 2) when a gate matches no metric of both
  /// runs, a gated metric is missing on one side or has a different unit, cannot be tested (fewer than two
  /// replications with a value on a side), or has a relative tolerance without a floor on a baseline mean of 0.
  public init(
    baseline: ReplicationTable, candidate: ReplicationTable, gates: [Gate], alpha: Double = 0.05,
    correction: MultipleTestCorrection = .holm
  ) throws(ComparisonError) {
    guard alpha > 0 && alpha < 1 else {
      throw ComparisonError("significance level \(alpha): expected a number in (0, 1)")
    }
    self.baseline = baseline
    self.candidate = candidate
    self.alpha = alpha
    self.correction = correction
    paired = Comparison.commonRandomNumbers(baseline, candidate)
    var warnings = Comparison.pairingWarnings(baseline, candidate, paired: paired)
    warnings += gates.compactMap(\.directionWarning)
    // The phone's cost gate, a default since it is the figure to decide on, is left out of runs written
    // before the metric existed rather than refusing them.
    let gates = gates.filter { gate in
      !(Gate.defaults.contains(gate) && gate.metric == Gate.phoneCostMetric)
        || baseline.keys.contains(where: gate.applies) || candidate.keys.contains(where: gate.applies)
    }
    try Comparison.checkGatedKeys(gates, baseline, candidate)
    var rows: [Row] = []
    for key in baseline.keys {
      guard let first = baseline.series[key], let second = candidate.series[key] else { continue }
      let gate = gates.first { $0.applies(to: key) }
      guard first.unit == second.unit else {
        throw ComparisonError(
          "\(key.metric) (\(key.widget)) is in '\(first.unit)' in \(baseline.path) but '\(second.unit)' in \(candidate.path)"
        )
      }
      let test = Comparison.test(first, second, paired: paired)
      if let test, !test.isFinite {
        throw ComparisonError(
          "\(key.metric) (\(key.widget)): its statistics overflow (mean \(test.baselineMean) vs \(test.candidateMean)); "
            + "no run writes such values: the files are corrupt or edited")
      }
      guard let gate else {
        rows.append(Row(key: key, unit: first.unit, test: test, gate: nil, gatePValue: nil, verdict: .none))
        continue
      }
      rows.append(try Comparison.gatedRow(key, first, test: test, gate: gate, warnings: &warnings))
    }
    self.rows = Comparison.verdicts(rows, correction: correction, alpha: alpha)
    self.warnings = warnings
    onlyInBaseline = baseline.keys.filter { candidate.series[$0] == nil }
    onlyInCandidate = candidate.keys.filter { baseline.series[$0] == nil }
  }

  /// What a reader should know when the tests cannot pair the runs' replications: the runs' sizes differ, or
  /// their seeds (or replications) do; empty for paired runs.
  static func pairingWarnings(_ baseline: ReplicationTable, _ candidate: ReplicationTable, paired: Bool) -> [String] {
    let sizes = (baseline.replicationCount, candidate.replicationCount)
    if sizes.0 != sizes.1 {
      return [
        "the baseline has \(sizes.0) replications and the candidate \(sizes.1): the tests cannot pair them "
          + "(Welch, less sensitive); run the candidate with the baseline's seed and --replications \(sizes.0)"
      ]
    }
    if !paired {
      return [
        "the runs used different seeds (or replications): the tests cannot pair replications (Welch, less sensitive); run the "
          + "candidate with the baseline's seed"
      ]
    }
    return []
  }

  /// Refuses a gate that matches no metric of either run, or a metric only one run has: a gated row must be
  /// in both, so the runs do not simulate the same widgets.
  static func checkGatedKeys(
    _ gates: [Gate], _ baseline: ReplicationTable, _ candidate: ReplicationTable
  ) throws(ComparisonError) {
    for gate in gates {
      let matching = baseline.keys.filter(gate.applies) + candidate.keys.filter(gate.applies)
      guard !matching.isEmpty else {
        throw Comparison.unmatched(
          gate, keys: baseline.keys + candidate.keys, place: "in \(baseline.path) or \(candidate.path)")
      }
      for key in matching where baseline.series[key] == nil || candidate.series[key] == nil {
        let missing = baseline.series[key] == nil ? baseline.path : candidate.path
        throw ComparisonError(
          "gate \(gate): \(key.metric) (\(key.widget)) is missing from \(missing): the runs do not simulate the same widgets"
        )
      }
    }
  }

  /// The row of a gated metric with its unadjusted p-value of "worse by no more than the tolerance". Refuses
  /// a metric that cannot be tested, or a relative tolerance without a floor on a baseline mean of 0; warns
  /// when every baseline replication reads the same value (the test then rests on the candidate's spread).
  static func gatedRow(
    _ key: ReplicationTable.Key, _ first: ReplicationTable.Series, test: DifferenceTest?, gate: Gate,
    warnings: inout [String]
  ) throws(ComparisonError) -> Row {
    guard let test else {
      throw ComparisonError(
        "gate \(gate): \(key.metric) (\(key.widget)) needs at least two replications with a value on each side to be tested"
      )
    }
    if gate.isRelativeWithoutFloor && test.baselineMean == 0 { throw zeroBaseline(gate, key, unit: first.unit) }
    if let constant = Comparison.constantValue(first) {
      warnings.append(
        "gate \(gate) on \(key.metric) (\(key.widget)): every baseline replication reads \(constant): the test "
          + "judges the change by the candidate's spread alone (and by nothing when the candidate is constant too); "
          + "check that the metric measures something in this scenario")
    }
    let margin = gate.margin(baselineMean: test.baselineMean)
    let p = test.pValue(worseBy: margin, direction: gate.direction)
    return Row(key: key, unit: first.unit, test: test, gate: gate, gatePValue: p, verdict: .pass)
  }

  /// `rows` with the gated ones' p-values adjusted by `correction` for testing them all at once, and their
  /// verdicts from the adjusted values: FAIL at most `alpha`.
  static func verdicts(_ rows: [Row], correction: MultipleTestCorrection, alpha: Double) -> [Row] {
    var rows = rows
    let gated = rows.indices.filter { rows[$0].gate != nil }
    let adjusted = correction.adjusted(gated.map { rows[$0].gatePValue ?? 1 })
    for (index, p) in zip(gated, adjusted) {
      let row = rows[index]
      rows[index] = Row(
        key: row.key, unit: row.unit, test: row.test, gate: row.gate, gatePValue: p, verdict: p <= alpha ? .fail : .pass
      )
    }
    return rows
  }

  /// A gate that matches no row of either run: the nearest metric names (or, for a metric both runs have,
  /// the nearest widgets), not every name, so the message stays a line.
  static func unmatched(_ gate: Gate, keys: [ReplicationTable.Key], place: String) -> ComparisonError {
    func names(_ all: [String]) -> [String] {
      var seen: Set<String> = []
      return all.filter { seen.insert($0).inserted }
    }
    let metrics = names(keys.map(\.metric))
    if let widget = gate.widget, metrics.contains(gate.metric) {
      let widgets = names(keys.filter { $0.metric == gate.metric }.map(\.widget))
      let near = DidYouMean.nearest(to: widget, among: widgets)
      let hint: String
      if !near.isEmpty {
        hint = " (did you mean \(DidYouMean.alternatives(near))?)"
      } else if widgets.count <= 5 {
        hint = "; it has \(widgets.map { "'\($0)'" }.joined(separator: ", "))"
      } else {
        hint = "; it has \(widgets.count) widgets"
      }
      return ComparisonError("gate \(gate): \(gate.metric) has no widget '\(widget)' \(place)\(hint)")
    }
    let near = DidYouMean.nearest(to: gate.metric, among: metrics)
    let hint =
      near.isEmpty
      ? " (\(metrics.count) metrics: `widgetsim compare --no-gates --all` lists them)"
      : " (did you mean \(DidYouMean.alternatives(near))?)"
    return ComparisonError("gate \(gate): no metric '\(gate.metric)' \(place)\(hint)")
  }

  /// The value every finite replication of `series` has, when there are at least two and they agree.
  static func constantValue(_ series: ReplicationTable.Series) -> Double? {
    let values = series.values.values.filter(\.isFinite)
    guard values.count >= 2, let first = values.first, values.allSatisfy({ $0 == first }) else { return nil }
    return first
  }

  /// Common random numbers: one and the same seed on both sides (replication r then uses the same streams),
  /// and the same replications.
  static func commonRandomNumbers(_ first: ReplicationTable, _ second: ReplicationTable) -> Bool {
    first.seeds.count == 1 && first.seeds == second.seeds && first.replications == second.replications
  }

  /// The test of one metric: paired over the replications both sides measured, or Welch.
  static func test(_ first: ReplicationTable.Series, _ second: ReplicationTable.Series, paired: Bool)
    -> DifferenceTest?
  {
    if paired && Set(first.values.keys) == Set(second.values.keys) {
      let replications = first.values.keys.sorted().filter {
        first.values[$0]!.isFinite && second.values[$0]!.isFinite
      }
      return DifferenceTest.paired(
        baseline: replications.map { first.values[$0]! }, candidate: replications.map { second.values[$0]! })
    }
    return DifferenceTest.welch(
      baseline: first.values.keys.sorted().map { first.values[$0]! }.filter(\.isFinite),
      candidate: second.values.keys.sorted().map { second.values[$0]! }.filter(\.isFinite))
  }
}
