import Fleets
import Reports
import ScenarioFiles
import WidgetModel

/// The options of `widgetsim run` that can be wrong together, checked before anything runs.
public struct RunOptions {
  public var jobs: Int?
  public var force: Bool
  public var resume: Bool
  public var report: Bool
  public var precision: [String]
  public var trace: Int?
  /// `--field-log` and `--server-log`, as given.
  public var fieldLog: String?
  public var serverLog: String?
  public var maxReplications: Int
  public var maxDevices: Int?
  public var precisionBatch: Int
  public var shard: String?

  /// The fleet part `--shard` names, when it names one (``problem(limits:)`` says when it is not K/N).
  public static func fleetShard(_ shard: String?) -> FleetShard? { shard.flatMap(FleetShard.init) }

  public init(
    jobs: Int?, force: Bool, resume: Bool, report: Bool, precision: [String], trace: Int?, fieldLog: String?,
    serverLog: String?,
    maxReplications: Int, maxDevices: Int?, precisionBatch: Int, shard: String?
  ) {
    (self.jobs, self.force, self.resume, self.report, self.precision) = (jobs, force, resume, report, precision)
    (self.trace, self.fieldLog, self.serverLog) = (trace, fieldLog, serverLog)
    (self.maxReplications, self.maxDevices) = (maxReplications, maxDevices)
    (self.precisionBatch, self.shard) = (precisionBatch, shard)
  }

  /// The first thing wrong with the options, as the command line says it, or nil.
  public func problem(limits: ScenarioLimits) -> String? {
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
    if let refusal = limits.refusal(replications: maxReplications) {
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
}
