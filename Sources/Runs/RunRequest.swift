import CommandSupport
import Fleets
import Reports
import ScenarioFiles
import WidgetModel

/// `widgetsim run` as its options ask for it, and the run half of `widgetsim check`: the options that can be
/// wrong together (``problem()``, before anything runs), then the scenario loaded with its overrides and run
/// as a whole, a shard of a fleet, or until its precision targets are met (``run(console:stop:)``).
///
/// The field logs (`--field-log`, `--server-log`) and report.html (`--report`) are written after the run
/// (``runForCommand(console:stop:)``).
public struct RunRequest: Sendable {
  /// The scenario file; nil for the embedded default scenario.
  public var file: String?
  public var scenario: ScenarioArguments
  /// The reports' folder; nil for ``RunExecution/defaultDirectory(_:)``.
  public var out: String?
  /// Print nothing but errors.
  public var quiet: Bool
  /// Threads for a fleet's devices; nil for every core.
  public var jobs: Int?
  public var perDevice: Bool
  public var detail: Bool
  /// `--precision` targets, as given (``problem()`` checks them).
  public var precision: [String]
  public var maxDevices: Int?
  public var maxReplications: Int
  public var precisionBatch: Int
  public var force: Bool
  public var resume: Bool
  public var report: Bool
  public var trace: Int?
  public var fieldLog: String?
  public var serverLog: String?
  /// `--shard K/N`, as given (``problem()`` checks it).
  public var shard: String?
  /// The widgetsim version the manifest records.
  public var version: String

  public init(
    file: String?, scenario: ScenarioArguments = ScenarioArguments(), out: String? = nil, quiet: Bool = false,
    jobs: Int? = nil, perDevice: Bool = false, detail: Bool = false, precision: [String] = [],
    maxDevices: Int? = nil, maxReplications: Int = PrecisionPlan.defaultMaximum,
    precisionBatch: Int = PrecisionPlan.defaultBatch, force: Bool = false, resume: Bool = false,
    report: Bool = false, trace: Int? = nil, fieldLog: String? = nil, serverLog: String? = nil,
    shard: String? = nil, version: String
  ) {
    (self.file, self.scenario, self.out, self.quiet, self.jobs) = (file, scenario, out, quiet, jobs)
    (self.perDevice, self.detail, self.precision, self.maxDevices) = (perDevice, detail, precision, maxDevices)
    (self.maxReplications, self.precisionBatch) = (maxReplications, precisionBatch)
    (self.force, self.resume, self.report, self.trace) = (force, resume, report, trace)
    (self.fieldLog, self.serverLog, self.shard, self.version) = (fieldLog, serverLog, shard, version)
  }

  /// The first thing wrong with the options, as the command line says it, or nil.
  public func problem() -> String? {
    if let jobs, jobs < 1 { return "--jobs must be at least 1, got \(jobs)" }
    if force && resume {
      return "--resume carries on the run in the output folder and --force replaces it: give one"
    }
    for text in precision where PrecisionTarget(text) == nil {
      return "--precision takes METRIC[@SUBJECT]:P% with 0 < P <= 100, e.g. staleness_p95:5%; got '\(text)'"
    }
    if let trace, trace < 0 { return "--trace takes a device number from 0, got \(trace)" }
    if maxReplications < 1 { return "--max-replications must be at least 1, got \(maxReplications)" }
    if let maxDevices, maxDevices < 1 { return "--max-devices must be at least 1, got \(maxDevices)" }
    if let refusal = scenario.limits.refusal(replications: maxReplications) {
      return "--max-replications: \(refusal)"
    }
    if precisionBatch < 1 { return "--precision-batch must be at least 1, got \(precisionBatch)" }
    if !precision.isEmpty && shard != nil {
      return "--precision decides replications as it goes: it does not apply to a shard"
    }
    if let shard {
      guard FleetShard(shard) != nil else {
        return "--shard takes K/N with 0 <= K < N, e.g. 0/4; got '\(shard)'"
      }
      if resume { return "--resume does not apply to a shard: rerun it with --force" }
      if report { return "a shard has no reports to chart: give --report to the merged run's `report`" }
      if trace != nil { return "--trace does not apply to a shard: trace the device in a run without --shard" }
      for (option, path) in [("--field-log", fieldLog), ("--server-log", serverLog)] where path != nil {
        return "\(option) does not apply to a shard: log the fleet in a run without --shard"
      }
    }
    if let fieldLog, fieldLog == serverLog { return "--field-log and --server-log name one file: give two" }
    return nil
  }

  /// The scenario with the overrides; fails with exit 2.
  public func load() throws(CommandFailure) -> LoadedScenario {
    try CommandFailure.mapping(status: 2) { try scenario.load(file) }
  }

  /// The run of the scenario (``load()``) these options ask for, precision targets included; fails with exit
  /// 2 when `--precision` could run past the work limit.
  public func execution() throws(CommandFailure) -> RunExecution {
    let loaded = try load()
    let targets = precision.compactMap(PrecisionTarget.init)
    // --precision may run up to --max-replications: that run's work is held to the work limit.
    if !targets.isEmpty, let refusal = loaded.work.with(replications: maxReplications).refusal(scenario.limits) {
      throw .badInput("--max-replications \(maxReplications): \(refusal)")
    }
    // The manifest records the precision options with the overrides (and a resume must repeat them).
    var arguments = scenario.recorded
    if !targets.isEmpty {
      arguments += targets.map { "--precision \($0.description)" }
      arguments += ["--max-replications \(maxReplications)", "--precision-batch \(precisionBatch)"]
    }
    var execution = RunExecution(
      loaded, overrides: arguments, directory: out, jobs: jobs, perDevice: perDevice, detail: detail, quiet: quiet,
      existing: resume ? .resume : force ? .replace : .refuse, version: version)
    execution.trace = trace
    if !targets.isEmpty {
      execution.precision = PrecisionPlan(
        targets: targets, minimum: loaded.configuration.replications, batch: precisionBatch,
        maximum: maxReplications)
    }
    return execution
  }

  /// Runs the scenario: a shard of its fleet with `--shard`, a fleet growing its devices for precision targets
  /// on per-second figures, or else replications (until the precision targets are met). Returns the run
  /// (the first one, for a fleet that grew), whose folder and scenario the field logs and report.html are
  /// written from; nil for a shard, which has neither. Fails as ``RunExecution/run(console:stop:)`` does.
  public func run(console: Console, stop: StopRequest) throws -> RunExecution? {
    let execution = try execution()
    if let part = shard.flatMap(FleetShard.init) {
      try execution.runShard(part, allowLarge: scenario.allowLarge, console: console, stop: stop)
      return nil
    }
    let targets = execution.precision?.targets ?? []
    if try SampleSizePlan.applies(targets, to: execution.scenario.configuration) {
      var grown = self
      try execution.runGrowingDevices(
        targets: targets, maximumDevices: maxDevices, resume: resume, console: console, stop: stop
      ) { devices in
        grown.scenario.devices = devices
        return (try grown.load(), grown.scenario.recorded)
      }
    } else {
      try execution.run(console: console, stop: stop)
    }
    return execution
  }
}
