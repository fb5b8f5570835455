import FieldLogs
import Reports
import SimulationEngine
import TestSupport
import Testing

/// `calibrate`, `check --observed` and `run --field-log` through the built executable: what they write,
/// and their exit codes (0 done or passed, 1 a failed check, 2 bad input).
@Suite("calibrate and check --observed", .serialized)
struct CalibrateCommandTests {
  static let log = Repository.path("Scenarios/field/field-log.jsonl")
  static let base = Repository.path("Scenarios/field/calibrate.yaml")
  static let serverLog = Repository.path("Scenarios/field/server-log.csv")

  @Test("calibrate writes a fitted scenario that passes check --observed, and the base fails it")
  func calibrateThenCheck() throws {
    let root = TestFiles.temporaryDirectory()
    let calibrated = try Subprocess.run(
      [
        "calibrate", Self.log, "--server-log", Self.serverLog, "--scenario", Self.base, "--out", "\(root)/fit",
        "--jobs", "2",
      ])
    #expect(calibrated.code == 0, "\(calibrated.output)")
    #expect(calibrated.output.contains("report: \(root)/fit/report.html"), "\(calibrated.output)")
    let delivery = try CSVTable(path: "\(root)/fit/delivery.csv")
    #expect(delivery.rows.count == 48)
    let curves = try CSVTable(path: "\(root)/fit/fit_curves.csv")
    #expect(curves.rows.filter { $0[2] == "qq" }.count == 11 * 99)
    // Whole-number counts a phone-day get one bin a number (x = x_high, consecutive), the rest 20 equal bins.
    let opens = curves.rows.filter { $0[0] == "app_opens_per_day" && $0[2] == "histogram" }
    #expect(!opens.isEmpty && opens.count <= 40 && opens.allSatisfy { $0[3] == $0[4] }, "\(opens)")
    #expect(zip(opens, opens.dropFirst()).allSatisfy { (Double($1[3]) ?? 0) - (Double($0[3]) ?? 0) == 1 })
    #expect(curves.rows.filter { $0[0] == "reload_gap" && $0[2] == "histogram" }.count == 20)
    // Opens by the hour of the clock, the logs' and the model's: 24 bins from 00:00, each side's shares summing to 1.
    let byHour = curves.rows.filter { $0[0] == "app_open_time_of_day" && $0[2] == "histogram" }
    #expect(byHour.map { Double($0[3]) ?? -1 } == (0..<24).map { Double($0) * 3_600 })
    #expect(abs(byHour.reduce(0) { $0 + (Double($1[5]) ?? 0) } - 1) < 1e-3)
    #expect(abs(byHour.reduce(0) { $0 + (Double($1[6]) ?? 0) } - 1) < 1e-3)
    #expect(calibrated.output.contains("verdict: the scenario explains the logs"), "\(calibrated.output)")
    // Durations carry their unit, in minutes too past two.
    let lateness = calibrated.output.split(separator: "\n").first { $0.hasPrefix("  system.after_delay.mean ") }
    #expect(lateness?.contains(" s = ") == true && lateness?.contains(" min (95% CI ") == true, "\(calibrated.output)")
    #expect(lateness?.contains(" s, n ") == true, "\(calibrated.output)")
    let fits = try CSVTable(path: "\(root)/fit/fit.csv")
    #expect(fits.header.joined(separator: ",") + "\n" == "key,estimate,ci95_low,ci95_high,n,method\n")
    // A fitted delay's family gives each of its parameters a row with its interval, not only the mean.
    let keys = fits.rows.map { $0[0] }
    #expect(keys.contains("system.silent_push.delay.median") && keys.contains("system.silent_push.delay.sigma"))
    for row in fits.rows where row[0].hasPrefix("system.after_delay.") {
      let (estimate, low, high) = (Double(row[1]) ?? .nan, Double(row[2]) ?? .nan, Double(row[3]) ?? .nan)
      #expect(low < estimate && estimate < high, "\(row)")
    }
    #expect(keys.filter { $0.hasPrefix("system.after_delay.") }.count == 3, "\(keys)")
    let fitted = try TestFiles.read("\(root)/fit/fitted.yaml")
    #expect(fitted.contains("# fitted: system.after_delay.mean"))
    #expect(fitted.contains("# fitted: system.silent_push.delay.mean"))
    #expect(fitted.contains("# fitted: budget.per_day.max"))
    // The logs' time zones, so that `run fitted.yaml` puts the phones where they were.
    #expect(fitted.contains("timezone_offset:  # from the logs"), "\(fitted)")
    #expect(fitted.contains("dist: empirical"), "\(fitted)")
    #expect(try TestFiles.read("\(root)/fit/fit_report.csv").hasPrefix("distribution,unit,n_observed"))

    let junit = "\(root)/junit.xml"
    let passing = try Subprocess.run(
      ["check", "\(root)/fit/fitted.yaml", "--observed", Self.log, "--out", "\(root)/pass", "--junit", junit])
    #expect(passing.code == 0, "\(passing.output)")
    #expect(try TestFiles.read(junit).contains(#"failures="0""#))
    let failing = try Subprocess.run(["check", Self.base, "--observed", Self.log, "--out", "\(root)/fail", "--quiet"])
    #expect(failing.code == 1, "\(failing.output)")
    #expect(failing.output.contains("verdict: the scenario does not explain the logs"), "\(failing.output)")
  }

  @Test("a malformed log line is exit 2 naming the file and line, and nothing is written")
  func malformedLog() throws {
    let root = TestFiles.temporaryDirectory()
    let bad = "\(root)/bad.jsonl"
    try TestFiles.write(
      "{\"t\":\"2026-01-05T08:00:00Z\",\"device\":\"a\",\"event\":\"app_foreground\"}\n{\"t\":\"soon\"}\n", to: bad)
    let result = try Subprocess.run(["calibrate", bad, "--scenario", Self.base, "--out", "\(root)/out"])
    #expect(result.code == 2, "\(result.output)")
    #expect(result.output.contains("\(bad):2:"), "\(result.output)")
    #expect(!TextFile.isReadable("\(root)/out/fit.csv"))
    let check = try Subprocess.run(["check", Self.base, "--observed", bad, "--out", "\(root)/check"])
    #expect(check.code == 2, "\(check.output)")
    let usage = try Subprocess.run(["check", Self.base, "--out", "\(root)/check"])
    #expect(usage.code == 2, "\(usage.output)")
  }

  @Test("run --field-log writes the example's log, and leaves the run's reports as they are")
  func fieldLogFromRun() throws {
    let root = TestFiles.temporaryDirectory()
    let scenario = Repository.path("Scenarios/field/app.yaml")
    let logged = try Subprocess.run(
      ["run", scenario, "--out", "\(root)/logged", "--field-log", "\(root)/log.jsonl", "--quiet"])
    #expect(logged.code == 0, "\(logged.output)")
    #expect(try TestFiles.read("\(root)/log.jsonl") == TestFiles.read(Self.log))
    let plain = try Subprocess.run(["run", scenario, "--out", "\(root)/plain", "--quiet"])
    #expect(plain.code == 0, "\(plain.output)")
    for file in RunReportWriter.files where file != "manifest.json" {
      #expect(try TestFiles.read("\(root)/logged/\(file)") == TestFiles.read("\(root)/plain/\(file)"), "\(file)")
    }
  }

  @Test("--check-devices caps the phones the check simulates; the fit is the same")
  func checkDevices() throws {
    let root = TestFiles.temporaryDirectory()
    let whole = try Subprocess.run(["calibrate", Self.log, "--scenario", Self.base, "--out", "\(root)/whole"])
    #expect(whole.code == 0, "\(whole.output)")
    #expect(whole.output.contains("checked on 20 against a simulation of 20"), "\(whole.output)")
    let few = try Subprocess.run(
      ["calibrate", Self.log, "--scenario", Self.base, "--out", "\(root)/few", "--check-devices", "5"])
    #expect(few.code == 0, "\(few.output)")
    #expect(few.output.contains("checked on 20 against a simulation of 5"), "\(few.output)")
    #expect(try TestFiles.read("\(root)/few/fit.csv") == TestFiles.read("\(root)/whole/fit.csv"))
    let simulated = { (folder: String) throws -> Int in
      let table = try CSVTable(path: "\(root)/\(folder)/fit_report.csv")
      let column = try table.column("n_simulated")
      return table.rows.map { Int($0[column]) ?? 0 }.reduce(0, +)
    }
    #expect(try simulated("few") < simulated("whole"))
    let zero = try Subprocess.run(
      ["calibrate", Self.log, "--scenario", Self.base, "--out", "\(root)/zero", "--check-devices", "0"])
    #expect(zero.code == 2, "\(zero.output)")
    #expect(zero.output.contains("--check-devices must be at least 1"), "\(zero.output)")
  }

  @Test("calibrate exits 0 on a fit that does not explain the logs, and names the gate that fails")
  func misfitNamesTheGate() throws {
    let root = TestFiles.temporaryDirectory()
    // 40 phones that only open the app, every 1 to 8 hours: no background refresh the base scenario expects.
    var lines: [String] = []
    for phone in 0..<40 {
      var t: Int64 = 1_767_225_600_000_000 + Int64(phone * 2_000) * 1_000_000
      for open in 0..<12 {
        t += Int64(3_600 + (phone * 7_919 + open * 104_729) % 25_200) * 1_000_000
        let time = FieldLogTime(utcMicroseconds: t, offsetSeconds: 0).text
        lines.append(#"{"t":"\#(time)","device":"p\#(phone)","event":"app_foreground"}"#)
      }
    }
    try TestFiles.write(lines.joined(separator: "\n") + "\n", to: "\(root)/opens.jsonl")
    let result = try Subprocess.run(
      ["calibrate", "\(root)/opens.jsonl", "--scenario", Self.base, "--out", "\(root)/fit", "--jobs", "2"])
    #expect(result.code == 0, "\(result.output)")
    #expect(result.output.contains("verdict: the scenario does not explain the logs"), "\(result.output)")
    #expect(
      result.output.contains("the gate is `widgetsim check DIR/fitted.yaml --observed LOG...`"), "\(result.output)")
    let page = try TestFiles.read("\(root)/fit/report.html")
    #expect(page.contains("with values on both sides, charted"), "the header counts every distribution compared")
  }

  @Test("opens that bunch in the evening: calibrate writes the profile, and the fitted scenario's opens match")
  func eveningOpens() throws {
    let root = TestFiles.temporaryDirectory()
    // 40 phones, 14 days, 6 opens a day: 40% between 18:00 and 22:00 UTC, the rest between 08:00 and 22:00.
    var random = SplitMix64(state: 5)
    func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
    var lines: [(Int64, String)] = []
    for phone in 0..<40 {
      for day in 0..<14 {
        for _ in 0..<6 {
          let hour = uniform() < 0.4 ? 18 + 4 * uniform() : 8 + 14 * uniform()
          let t = 1_767_225_600_000_000 + Int64((Double(day) * 86_400 + hour * 3_600) * 1e6)
          for (offset, event) in [(Int64(0), "app_foreground"), (90_000_000, "app_background")] {
            let time = FieldLogTime(utcMicroseconds: t + offset, offsetSeconds: 0).text
            lines.append((t + offset, #"{"t":"\#(time)","device":"p\#(phone)","event":"\#(event)"}"#))
          }
        }
      }
    }
    let log = "\(root)/evening.jsonl"
    try TestFiles.write(lines.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: "\n") + "\n", to: log)
    let calibrated = try Subprocess.run(["calibrate", log, "--scenario", Self.base, "--out", "\(root)/fit"])
    #expect(calibrated.code == 0, "\(calibrated.output)")
    #expect(calibrated.output.contains("user.app_opens.profile: set:"), "\(calibrated.output)")
    #expect(try TestFiles.read("\(root)/fit/fitted.yaml").contains("profile:"))
    func verdict(_ scenario: String, _ out: String) throws -> String {
      _ = try Subprocess.run(["check", scenario, "--observed", log, "--out", "\(root)/\(out)"])
      let table = try CSVTable(path: "\(root)/\(out)/fit_report.csv")
      let (name, verdict) = (try table.column("distribution"), try table.column("verdict"))
      return try #require(table.rows.first { $0[name] == "app_open_time_of_day" })[verdict]
    }
    #expect(try verdict("\(root)/fit/fitted.yaml", "fitted") == "pass")
    #expect(try verdict(Self.base, "base") == "fail")
  }
}
