import CommandSupport
import Reports

/// `widgetsim compare BASELINE CANDIDATE`: the candidate's scenario read for CI annotations, the outputs
/// checked against what the command reads, then the gated comparison (``GatedComparison``) written to
/// compare.csv.
public struct RunComparison: Sendable {
  /// A run folder or a replications.csv file.
  public var baseline: String
  /// A run folder or a replications.csv file.
  public var candidate: String
  /// compare.csv's folder; nil for ``directory``'s default.
  public var out: String?
  /// Replace an existing compare.csv (`--force`); otherwise it is refused (exit 2).
  public var replacing: Bool
  public var comparison: GatedComparison

  public init(
    baseline: String, candidate: String, out: String? = nil, replacing: Bool = false,
    comparison: GatedComparison = GatedComparison()
  ) {
    self.baseline = baseline
    self.candidate = candidate
    self.out = out
    self.replacing = replacing
    self.comparison = comparison
  }

  /// The folder compare.csv goes to: `out`, else the candidate's folder, or the current folder for a file.
  public var directory: String { out ?? (TextFile.isDirectory(candidate) ? candidate : ".") }

  /// The scenario file a candidate folder's manifest names (nil for a file), and its text (nil when it is
  /// gone). A device, a FIFO or a file over `limit` bytes there is refused (exit 2), as is a manifest that
  /// cannot be read.
  public func candidateScenario(limit: Int) throws(CommandFailure) -> (file: String?, text: String?) {
    let file = try CommandFailure.mapping(status: 2) {
      TextFile.isDirectory(candidate) ? try ManifestFields(directory: candidate)["scenario_file"] : nil
    }
    // The file came from the manifest, not the command line: say so, or the user cannot tell where it came from.
    let text = try CommandFailure.mapping(
      status: 2, prefix: "\(candidate)/manifest.json names the scenario file \(file ?? ""), which cannot be read: "
    ) { try file.flatMap { try TextFile.readIfPresent($0, limit: limit) } }
    return (file, text)
  }

  /// What the command reads: each run's replications (and a folder's manifest), and the candidate's scenario.
  func inputs(scenarioFile: String?) -> [OutputPaths.Named] {
    var inputs: [OutputPaths.Named] = []
    for (role, path) in [("the baseline", baseline), ("the candidate", candidate)] {
      inputs.append((role, OutputPaths.replications(path)))
      if TextFile.isDirectory(path) { inputs.append(("\(role)'s manifest", "\(path)/manifest.json")) }
    }
    if let scenarioFile { inputs.append(("the candidate's scenario", scenarioFile)) }
    return inputs
  }

  /// Compares as the command does: reads the candidate's scenario (``candidateScenario(limit:)``; `ci` makes
  /// the CI outputs that annotate it), refuses outputs on inputs, then compares, writes compare.csv and the
  /// CI outputs and prints the verdicts. Fails with exit 1 when a gate fails, 2 on bad input.
  public func run(
    scenarioLimit: Int, console: Console, ci: (_ scenarioFile: String?, _ scenarioText: String?) -> CIReporting
  ) throws(CommandFailure) {
    let scenario = try candidateScenario(limit: scenarioLimit)
    let ci = ci(scenario.file, scenario.text)
    try OutputPaths.check(
      outputs: [("compare.csv", "\(directory)/compare.csv")] + ci.outputs, inputs: inputs(scenarioFile: scenario.file))
    try comparison.compare(
      baseline: try GatedComparison.table(baseline), candidate: try GatedComparison.table(candidate),
      writingInto: directory, replacing: replacing, console: console, ci: ci, title: "widgetsim compare \(candidate)")
  }
}
