import Reports
import TestSupport
import Testing

/// `run --trace DEVICE` and `report --device N --day D`: trace.csv beside the run's reports, which stay
/// byte for byte those of the untraced run, and the errors a wrong device or day gets.
@Suite("run --trace and the device timeline", .serialized)
struct TraceCommandTests {
  /// The low-battery example on LTE, with WidgetKit and silent pushes on the ticker's changes.
  static let scenario = [
    Repository.path("Scenarios/battery-low-power.yaml"), "--set", "widgets[ticker].data.on_change=[push, silent_push]",
  ]

  /// manifest.json without its one field that changes between identical runs.
  static func manifestWithoutWallTime(_ directory: String) throws -> String {
    try TestFiles.read("\(directory)/manifest.json").split(separator: "\n")
      .filter { !$0.contains("wall_time_seconds") }.joined(separator: "\n")
  }

  @Test("with --trace every report is byte for byte the untraced run's, and trace.csv's requests are reloads.csv's")
  func traceChangesNothing() throws {
    let root = TestFiles.temporaryDirectory()
    let common = ["run"] + Self.scenario + ["--days", "2", "--replications", "1", "--quiet"]
    let traced = try Subprocess.run(common + ["--out", "\(root)/traced", "--trace", "0"])
    #expect(traced.code == 0, "\(traced.output)")
    let plain = try Subprocess.run(common + ["--out", "\(root)/plain"])
    #expect(plain.code == 0, "\(plain.output)")
    for file in RunReportWriter.files where file != "manifest.json" {
      #expect(try TestFiles.read("\(root)/traced/\(file)") == TestFiles.read("\(root)/plain/\(file)"), "\(file)")
    }
    #expect(try Self.manifestWithoutWallTime("\(root)/traced") == Self.manifestWithoutWallTime("\(root)/plain"))
    #expect(ExistingReports.find([TraceReport.file], in: "\(root)/plain").isEmpty)

    let trace = try CSVTable(path: "\(root)/traced/trace.csv")
    #expect(trace.header.joined(separator: ",") + "\n" == TraceReport.columns)
    let kind = try trace.column("kind")
    let kinds = Set(trace.rows.map { $0[kind] })
    for expected in [
      "view", "reload_request", "reload", "data_change", "app_open", "app_foreground", "app_wake", "push", "radio",
      "low_power_mode", "charging", "battery",
    ] {
      #expect(kinds.contains(expected), "trace.csv has no \(expected) rows")
    }
    // Requests by (widget, cause, outcome): the trace's rows against reloads.csv's counts.
    var fromTrace: [String: Int] = [:]
    let (subject, cause, outcome) = (
      try trace.column("subject"), try trace.column("cause"), try trace.column("outcome")
    )
    for row in trace.rows where row[kind] == "reload_request" {
      fromTrace["\(row[subject]) \(row[cause]) \(row[outcome])", default: 0] += 1
    }
    let reloads = try CSVTable(path: "\(root)/traced/reloads.csv")
    var fromReloads: [String: Int] = [:]
    let columns = (try reloads.column("widget"), try reloads.column("cause"), try reloads.column("outcome"))
    let count = try reloads.column("count")
    for row in reloads.rows {
      fromReloads["\(row[columns.0]) \(row[columns.1]) \(row[columns.2])", default: 0] += Int(row[count]) ?? -1
    }
    #expect(fromTrace == fromReloads)
  }

  @Test("a fleet's traced device is the run's: its reloads per day are its row of devices.csv")
  func fleetDevice() throws {
    let directory = TestFiles.temporaryDirectory()
    let run = try Subprocess.run([
      "run", Repository.path("Scenarios/fleet-capacity.yaml"), "--devices", "5", "--days", "2", "--replications", "1",
      "--per-device", "--trace", "3", "--out", directory, "--quiet",
    ])
    #expect(run.code == 0, "\(run.output)")
    let trace = try CSVTable(path: "\(directory)/trace.csv")
    let (device, kind, outcome) = (try trace.column("device"), try trace.column("kind"), try trace.column("outcome"))
    #expect(trace.rows.allSatisfy { $0[device] == "3" })
    let ran = ["granted_budget", "granted_exempt", "withheld_granted", "deferred_granted"]
    let reloads = trace.rows.filter { $0[kind] == "reload" && ran.contains($0[outcome]) }.count
    let devices = try CSVTable(path: "\(directory)/devices.csv")
    let (number, perDay) = (try devices.column("device"), try devices.column("reloads_per_day"))
    let row = try #require(devices.rows.first { $0[number] == "3" })
    #expect(reloads > 0)
    #expect(CSVFormat.number(Double(reloads) / 2, decimals: 3) == row[perDay])
  }

  @Test("a device the run does not have, a shard, an untraced device or a day outside the run: exit 2")
  func errors() throws {
    let root = TestFiles.temporaryDirectory()
    let run = ["run"] + Self.scenario + ["--days", "2", "--replications", "1", "--quiet"]
    let missing = try Subprocess.run(run + ["--out", "\(root)/missing", "--trace", "1"])
    #expect(
      missing.code == 2 && missing.output.contains("--trace 1: the run has 1 device, numbered 0"), "\(missing.output)")
    let shard = try Subprocess.run(run + ["--out", "\(root)/shard", "--trace", "0", "--shard", "0/2"])
    #expect(shard.code == 2 && shard.output.contains("--trace does not apply to a shard"), "\(shard.output)")

    #expect(try Subprocess.run(run + ["--out", "\(root)/traced", "--trace", "0"]).code == 0)
    let device = try Subprocess.run(["report", "\(root)/traced", "--device", "3"])
    #expect(device.code == 2 && device.output.contains("traces device 0; rerun with --trace 3"), "\(device.output)")
    let day = try Subprocess.run(["report", "\(root)/traced", "--day", "2"])
    #expect(day.code == 2 && day.output.contains("--day 2: the run has 2 days, numbered 0 to 1"), "\(day.output)")
    let good = try Subprocess.run(["report", "\(root)/traced", "--device", "0", "--day", "1"])
    #expect(good.code == 0, "\(good.output)")
    #expect(try TestFiles.read("\(root)/traced/report.html").contains("Device 0, day 1: timeline"))

    // Without --trace: the page says how to get one; asking for a device is an error saying the same.
    #expect(try Subprocess.run(run + ["--out", "\(root)/traced", "--force"]).code == 0)
    #expect(ExistingReports.find([TraceReport.file], in: "\(root)/traced").isEmpty, "--force left the old trace")
    let plain = try Subprocess.run(["report", "\(root)/traced"])
    #expect(plain.code == 0, "\(plain.output)")
    #expect(try TestFiles.read("\(root)/traced/report.html").contains("widgetsim run FILE --trace 0"))
    let asked = try Subprocess.run(["report", "\(root)/traced", "--device", "0"])
    #expect(asked.code == 2 && asked.output.contains("no trace.csv"), "\(asked.output)")
  }
}
