import FieldLogs
import Reports
import WidgetModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `widgetsim calibrate` costs before its check: reading a field log and fitting the base scenario's
/// parameters to it. The log is the field scenario's own (`run --field-log`), written once into a scratch
/// file; each sample reads it whole and fits, timed.
public final class CalibrationBenchmark: @unchecked Sendable {
  let scenario: ScenarioConfiguration
  private var path: String?
  private var lines = 0

  init(scenario: ScenarioConfiguration) {
    self.scenario = scenario
  }

  deinit {
    if let path { AtomicFile.remove(path) }
  }

  /// Log lines read and fitted per second.
  func linesPerSecond() -> Double {
    let path = logPath()
    let stopwatch = Stopwatch()
    var set = FieldLogSet(base: scenario, holdout: 0)
    do {
      try set.read([path])
    } catch {
      preconditionFailure("the calibration benchmark cannot read its own log: \(error)")
    }
    let fits = FieldEstimators.fit(set.samples().fit, base: scenario)
    let seconds = stopwatch.elapsedNanoseconds / 1e9
    keepAlive(fits.count)
    return Double(set.reader.lines) / seconds
  }

  /// The scratch log, written on first use.
  private func logPath() -> String {
    if let path { return path }
    let made = "\(ReplicationCostBenchmark.scratchRoot)/widgetsim-bench-field-\(getpid()).jsonl"
    do {
      try FieldLogWriter.write(scenario, to: made)
    } catch {
      preconditionFailure("the calibration benchmark cannot write its log: \(error)")
    }
    path = made
    return made
  }
}
