import FieldLogs
import Reports
import SimulationEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `widgetsim calibrate` costs on a large fleet's log: many phones that each logged a few app opens, the
/// shape of a big app's first logs. The log is generated once into a scratch file (not by the simulator:
/// phones start at a random time of day 0 and open the app every 1 to 8 hours, on six clocks from UTC-08:00 to
/// +09:00, +05:30 among them); each sample runs the whole command on it (read, fit, the check's simulation,
/// the reports) with the base scenario given, and is timed.
final class CalibrationFleetBenchmark: @unchecked Sendable {
  let phones: Int
  let linesPerPhone: Int
  let base: String
  let jobs: Int
  private var path: String?

  init(phones: Int, linesPerPhone: Int, base: String, jobs: Int) {
    (self.phones, self.linesPerPhone, self.base, self.jobs) = (phones, linesPerPhone, base, jobs)
  }

  deinit {
    if let path { AtomicFile.remove(path) }
  }

  /// The row's parameter: the log's size.
  var parameter: String { "\(phones)_phones_\(linesPerPhone)_lines" }

  /// Phones calibrated per second, the whole command.
  func phonesPerSecond() -> Double {
    let log = logPath()
    let out = "\(ReplicationCostBenchmark.scratchRoot)/widgetsim-bench-calibrate-\(getpid())"
    let calibration = Calibration(logs: [log], base: base, out: out, jobs: jobs, force: true)
    let stopwatch = Stopwatch()
    let outcome: Calibration.Outcome
    do {
      outcome = try calibration.run()
    } catch {
      preconditionFailure("the fleet calibration benchmark failed: \(error)")
    }
    let seconds = stopwatch.elapsedNanoseconds / 1e9
    precondition(outcome.fittedPhones == phones, "the generated log holds \(outcome.fittedPhones) phones")
    for file in ExistingReports.find(Calibration.files + [OutputFolder.lockName], in: out) {
      AtomicFile.remove("\(out)/\(file)")
    }
    rmdir(out)
    return Double(phones) / seconds
  }

  /// The UTC offsets the phones' clocks show, in minutes.
  static let offsetMinutes = [-480, -300, 0, 60, 330, 540]

  /// The scratch log, written on first use.
  private func logPath() -> String {
    if let path { return path }
    let made = "\(ReplicationCostBenchmark.scratchRoot)/widgetsim-bench-fleet-log-\(getpid()).jsonl"
    do {
      let writer = try AtomicFileWriter(path: made)
      var random = SplitMix64(state: 0x0CA1_1B8A_7E00_F1E7)
      let start: Int64 = 1_767_225_600_000_000  // 2026-01-01T00:00Z
      var lines = ""
      for phone in 0..<phones {
        let offset = CalibrationFleetBenchmark.offsetMinutes[phone % CalibrationFleetBenchmark.offsetMinutes.count]
        var t = start + Int64(random.next() % 86_400) * 1_000_000
        for _ in 0..<linesPerPhone {
          t += Int64(3_600 + random.next() % 25_200) * 1_000_000
          let time = FieldLogTime(utcMicroseconds: t, offsetSeconds: offset * 60)
          lines += "{\"t\":\"\(time.text)\",\"device\":\"phone-\(phone)\",\"event\":\"app_foreground\"}\n"
        }
        if lines.utf8.count > 1 << 20 {
          try writer.append(lines)
          lines = ""
        }
      }
      try writer.append(lines)
      try writer.commit()
    } catch {
      preconditionFailure("the fleet calibration benchmark cannot write its log: \(error)")
    }
    path = made
    return made
  }
}
