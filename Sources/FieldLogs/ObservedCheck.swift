import CommandSupport
import Comparisons
import Reports
import ScenarioFiles
import SimulationEngine
import WidgetModel

/// `widgetsim check SCENARIO --observed LOG...`: the goodness-of-fit gate. The scenario is simulated with
/// the logs' phones and days and compared with the logs distribution by distribution (``GoodnessOfFit``);
/// the check fails when a difference is both real and above its floor. Writes fit_report.csv into the
/// output folder, and the CI outputs other gates write (JUnit XML, the GitHub step summary, annotations).
public struct ObservedCheck {
  public var logs: [String]
  /// The server's send logs (CSV), if any.
  public var serverLogs: [String] = []
  public var scenario: LoadedScenario
  public var out: String
  public var jobs = 1
  /// Floors replacing the defaults, by distribution name.
  public var floors: [String: Double] = [:]
  public var ci: CIReporting
  /// Replace the reports already in ``out`` (otherwise they are refused).
  public var force = false
  /// The most phones the goodness of fit simulates (``GoodnessOfFit/simulatedPhones(logged:at:)``).
  public var checkDevices = GoodnessOfFit.defaultCheckDevices

  public init(logs: [String], scenario: LoadedScenario, out: String, ci: CIReporting) {
    self.logs = logs
    self.scenario = scenario
    self.out = out
    self.ci = ci
  }

  /// The check as `check --observed` runs it: `floors` as the command line gives them (`NAME=D`, checked by
  /// ``floorProblem(_:)``).
  public init(
    logs: [String], serverLogs: [String] = [], scenario: LoadedScenario, out: String, ci: CIReporting,
    floors: [String], jobs: Int, force: Bool = false, checkDevices: Int? = nil
  ) {
    self.init(logs: logs, scenario: scenario, out: out, ci: ci)
    self.force = force
    self.checkDevices = checkDevices ?? GoodnessOfFit.defaultCheckDevices
    self.serverLogs = serverLogs
    self.jobs = jobs
    for floor in floors {
      let parts = floor.split(separator: "=")
      self.floors[String(parts[0])] = Double(parts[1])
    }
  }

  /// What is wrong with `check`'s options, or nil: `--jobs`, one of `--baseline` and `--observed`, no
  /// `--report` with `--observed` (it makes no run), and the `--ks-floor` values.
  public static func problem(
    jobs: Int?, baseline: Bool, observed: Bool, report: Bool, floors: [String], checkDevices: Int? = nil
  ) -> String? {
    if let jobs, jobs < 1 { return "--jobs must be at least 1, got \(jobs)" }
    if let checkDevices, checkDevices < 1 { return "--check-devices must be at least 1, got \(checkDevices)" }
    if baseline == observed { return "give --baseline FILE or --observed LOG..." }
    if observed && report { return "--report charts a run: with --observed, `widgetsim report DIR` draws the fit" }
    return floorProblem(floors)
  }

  /// What is wrong with `--ks-floor` values, or nil.
  public static func floorProblem(_ floors: [String]) -> String? {
    for floor in floors {
      let parts = floor.split(separator: "=")
      guard parts.count == 2, let value = Double(parts[1]), value > 0, value <= 1 else {
        return "--ks-floor takes NAME=D with 0 < D <= 1, e.g. policy_lateness=0.2; got '\(floor)'"
      }
    }
    return nil
  }

  /// Runs the check and prints its lines (only the verdict and annotations when `quiet`); a failed check
  /// ends the command with status 1.
  public func runForCommand(quiet: Bool, console: Console) throws(CommandFailure) {
    let (lines, failed) = try run()
    for line in lines where !quiet || line.hasPrefix("verdict") || line.hasPrefix("::") { console.print(line) }
    if failed { throw CommandFailure(status: 1) }
  }

  /// Runs the check; returns the console lines and whether it failed. Bad input fails with status 2.
  public func run() throws(CommandFailure) -> (lines: [String], failed: Bool) {
    for name in floors.keys where !GoodnessOfFit.measures.contains(where: { $0.name == name }) {
      throw .badInput(
        "--ks-floor \(name): no such distribution; expected one of "
          + GoodnessOfFit.measures.map(\.name).joined(separator: ", "))
    }
    let inputs = FitFolder.inputs(logs: logs, serverLogs: serverLogs, scenario: ("the scenario", scenario.file))
    let folder = try FitFolder(
      out, writes: [Calibration.reportFile, DeliveryTable.file, FitCurves.file], inputs: inputs,
      extraOutputs: ci.junit.map { [(what: "--junit", path: $0)] } ?? [], force: force)
    defer { withExtendedLifetime(folder) {} }
    let configuration = scenario.configuration
    var set = FieldLogSet(base: configuration, holdout: 0)
    try CommandFailure.mapping(status: 2) { try set.read(logs, serverLogs: serverLogs, jobs: jobs) }
    set.keepSends(of: checkDevices)
    let observed = set.samples().check
    guard observed.devices > 0 else { throw .badInput("the logs hold no records: \(logs.joined(separator: ", "))") }
    var simulated = configuration
    simulated.fleet.devices = GoodnessOfFit.simulatedPhones(logged: observed.devices, at: checkDevices)
    simulated.days = Swift.max(1, observed.days)
    let offsets = observed.clockOffsetDistribution
    simulated.fleet.clockOffset = try CommandFailure.mapping(status: 1) {
      try Distribution.empirical(values: offsets.values, weights: offsets.weights)
    }
    let (simulation, shared) = GoodnessOfFit.simulate(
      simulated, against: observed, replay: !serverLogs.isEmpty, jobs: jobs)
    let checks = GoodnessOfFit.compare(observed, simulation, floors: floors, sharedEvents: shared)
    var files = [(name: Calibration.reportFile, text: GoodnessOfFit.csv(checks))]
    if let deliveries = DeliveryTable.csv(observed: observed, simulated: simulation) {
      files.append((DeliveryTable.file, deliveries))
    }
    files.append((FitCurves.file, FitCurves.csv(checks)))
    try folder.commit(files)
    let title = "widgetsim check \(scenario.file) --observed"
    try CommandFailure.mapping(status: 1) {
      if let junit = ci.junit { try AtomicFile.write(ObservedCheck.junit(checks, suite: title), to: junit) }
      if let summary = ci.stepSummary {
        try AppendFile.append(ObservedCheck.markdown(checks, title: title), to: summary)
      }
    }
    var lines = set.skipped + GoodnessOfFit.lines(checks)
    if ci.annotates {
      lines += checks.filter(\.failed).map { check in
        WorkflowCommand.error(
          file: ci.scenarioFile, line: nil, title: "widgetsim check --observed: \(check.measure.name) differs",
          message: ObservedCheck.failureText(check))
      }
    }
    return (lines, checks.contains(where: \.failed))
  }

  static func failureText(_ check: GoodnessOfFit.Check) -> String {
    guard let test = check.test else { return "" }
    return "\(check.measure.name): KS distance \(FitText.fixed(test.distance, 4)) above its floor "
      + "\(FitText.number(check.floor)) (p \(FitText.number(test.p, digits: 3)), n \(test.countA) logged, "
      + "\(test.countB) simulated)"
  }

  /// One testcase per distribution tested; `time` 0, as the comparison gates write it.
  static func junit(_ checks: [GoodnessOfFit.Check], suite: String) -> String {
    let tested = checks.filter { $0.test != nil }
    let failures = tested.filter(\.failed).count
    func escape(_ text: String) -> String { MarkupText.escaped(text, xml: true) }
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="widgetsim" tests="\#(tested.count)" failures="\#(failures)" errors="0" time="0">"#,
      #"  <testsuite name="\#(escape(suite))" tests="\#(tested.count)" failures="\#(failures)" errors="0" skipped="0" time="0">"#,
    ]
    for check in tested {
      let open = #"    <testcase name="\#(escape(check.measure.name))" classname="widgetsim.observed" time="0""#
      guard check.failed else {
        lines.append(open + "/>")
        continue
      }
      lines.append(open + ">")
      lines.append(#"      <failure message="\#(escape(failureText(check)))" type="FitFailed"/>"#)
      lines.append("    </testcase>")
    }
    return (lines + ["  </testsuite>", "</testsuites>"]).joined(separator: "\n") + "\n"
  }

  /// The step summary: a table of the distributions and the verdict.
  static func markdown(_ checks: [GoodnessOfFit.Check], title: String) -> String {
    var text = "### \(title)\n\n| distribution | KS distance | floor | p | n logged / simulated | verdict |\n"
    text += "|---|---|---|---|---|---|\n"
    for check in checks {
      guard let test = check.test else {
        text +=
          "| \(check.measure.name) | | \(FitText.number(check.floor)) | | \(check.observed.count) / "
          + "\(check.simulated.count) | too few |\n"
        continue
      }
      text +=
        "| \(check.measure.name) | \(FitText.fixed(test.distance, 3)) | \(FitText.number(check.floor)) | "
        + "\(FitText.number(test.p, digits: 3)) | \(test.countA) / \(test.countB) | "
        + "\(check.failed ? "**fail**" : "pass") |\n"
    }
    return text + "\n\(GoodnessOfFit.verdict(checks))\n\n"
  }
}
