import CommandSupport
import Comparisons
import FieldLogs
import HTMLReport

/// `widgetsim check`: a scenario run and gated against a stored baseline (`--baseline`), or checked against
/// field logs (`--observed`). The command line fills it from its options, checks them with ``problem()`` and
/// calls ``run(console:stop:)``.
public struct ScenarioCheck {
  /// The run: the scenario file and its options, the output folder, threads, `--quiet`, `--force`.
  public var request: RunRequest
  /// The scenario file, as the CI outputs name it.
  public var file: String
  /// The stored baseline (a replications.csv file or a run folder); nil checks against ``observed``.
  public var baseline: String?
  /// The field logs, the server's send logs and the KS-distance floors (`NAME=D`) of `--observed`.
  public var observed: ObservedLogs
  /// The gates of the comparison with the baseline.
  public var comparison: GatedComparison
  /// The JUnit XML file the CI outputs write (`--junit`), or nil.
  public var junit: String?

  /// What `check --observed` reads: field logs, the server's send logs, floors, the most phones to simulate.
  public struct ObservedLogs {
    public var logs: [String]
    public var serverLogs: [String]
    public var floors: [String]
    public var checkDevices: Int?

    public init(logs: [String], serverLogs: [String], floors: [String], checkDevices: Int?) {
      self.logs = logs
      self.serverLogs = serverLogs
      self.floors = floors
      self.checkDevices = checkDevices
    }
  }

  public init(
    request: RunRequest, file: String, baseline: String?, observed: ObservedLogs, comparison: GatedComparison,
    junit: String? = nil
  ) {
    self.request = request
    self.file = file
    self.baseline = baseline
    self.observed = observed
    self.comparison = comparison
    self.junit = junit
  }

  /// The first thing wrong with the options, as the command line says it, or nil.
  public func problem() -> String? {
    ObservedCheck.problem(
      jobs: request.jobs, baseline: baseline != nil, observed: !observed.logs.isEmpty, report: request.report,
      floors: observed.floors, checkDevices: observed.checkDevices)
  }

  /// Runs the check, with the CI outputs (``junit``, and under GitHub Actions the step summary and the
  /// annotations on the scenario's lines); with the request's `report`, report.html is written into the run's
  /// folder before the comparison.
  public func run(console: Console, stop: StopRequest) throws {
    guard let baseline else {
      let loaded = try request.load()
      return try ObservedCheck(
        logs: observed.logs, serverLogs: observed.serverLogs, scenario: loaded,
        out: request.out ?? "Reports/\(loaded.configuration.name)", ci: ci(loaded.text), floors: observed.floors,
        jobs: request.jobs ?? console.cores, force: request.force, checkDevices: observed.checkDevices
      ).runForCommand(quiet: request.quiet, console: console)
    }
    // Read the baseline and check the gates against it first: a bad one fails at once, not after the run.
    let check = try BaselineCheck(baseline: baseline, comparison: comparison)
    let execution = try request.execution()
    let reporting = ci(execution.scenario.text)
    try check.checkOutputs(runDirectory: execution.directory, scenarioFile: file, ci: reporting)
    try execution.run(console: console, stop: stop)
    if request.report { try HTMLReport.writeForCommand(directory: execution.directory, console: console) }
    try check.compare(runIn: execution.directory, ci: reporting, title: "widgetsim check \(file)", console: console)
  }

  /// The CI outputs for the scenario whose text is `scenarioText`.
  private func ci(_ scenarioText: String) -> CIReporting {
    .forScenario(junit: junit, scenarioFile: file, scenarioText: scenarioText)
  }
}
