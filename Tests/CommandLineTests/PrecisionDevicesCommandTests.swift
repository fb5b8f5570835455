import TestSupport
import Testing

@Suite("run --precision on a sampled fleet's per-second figures: more devices, not replications")
struct PrecisionDevicesCommandTests {
  /// fleet-capacity for a day, `devices` phones standing for 10,000.
  static func arguments(devices: Int, out: String) -> [String] {
    [
      "run", Repository.path("Scenarios/fleet-capacity.yaml"), "--days", "1", "--warmup-days", "0", "--devices",
      "\(devices)", "--set", "fleet.represents=10000", "--out", out,
    ]
  }

  /// The percentages the precision lines report for `target`, in order.
  static func sampling(_ output: String, _ target: String) -> [Double] {
    output.split(separator: "\n").compactMap { line -> Double? in
      let prefix = "  \(target): sampling ±"
      guard line.hasPrefix(prefix) else { return nil }
      return Double(line.dropFirst(prefix.count).prefix { $0 != "%" })
    }
  }

  @Test("a target the sample misses runs again with the devices the square-root law asks; the last run meets it")
  func growsTheSample() throws {
    let out = TestFiles.temporaryDirectory()
    let target = "p99_requests_per_second@received:3.00%"
    let run = try Subprocess.run(
      PrecisionDevicesCommandTests.arguments(devices: 100, out: out) + ["--precision", target])
    #expect(run.code == 0, "\(run.output)")
    let reached = PrecisionDevicesCommandTests.sampling(run.output, target)
    // The first sample misses 3%; the sampling half-width falls as one over the root of the devices, and
    // each next run is sized for 3% with a 10% margin from the run before (a sample's half-width is itself
    // estimated, from how unevenly its phones share their hours: a run may fall just short and go again).
    #expect(reached.count >= 2 && reached.count <= 3, "\(run.output)")
    #expect(reached.first.map { $0 > 3 } == true && reached.last.map { $0 <= 3 } == true, "\(reached)")
    let runs = run.output.split(separator: "\n").compactMap { line -> Int? in
      guard line.hasPrefix("precision: running again with ") else { return nil }
      return Int(line.dropFirst("precision: running again with ".count).prefix { $0.isNumber })
    }
    #expect(runs.count == reached.count - 1, "\(run.output)")
    var devices = 100
    for (index, next) in runs.enumerated() {
      let expected = (Double(devices) * (reached[index] / 3) * (reached[index] / 3) * 1.1).rounded(.up)
      // The printed percentage is rounded to 0.01: the devices agree to that.
      #expect(abs(Double(next) - expected) <= expected * 0.01, "\(next) vs \(expected)")
      devices = next
    }
    let next = try #require(runs.last)
    #expect(run.output.contains("precision: every target met with \(next) devices"))
    // The folder holds the last run, and its manifest the devices that reproduce it.
    let manifest = try TestFiles.read(out + "/manifest.json")
    #expect(manifest.contains("\"fleet.devices=\(next)\""))
    #expect(manifest.contains("\"devices\": \(next),"))
    let summary = try TestFiles.read(out + "/summary.csv")
    #expect(summary.contains("p99_requests_per_second,received,") && summary.contains("fleet_sample"))
  }

  @Test("growing the sample: one result block on standard output with its verdict; the runs before on standard error")
  func oneAnswerOnStandardOutput() throws {
    let out = TestFiles.temporaryDirectory()
    let target = "p99_requests_per_second@received:3.00%"
    let folder = TestFiles.temporaryDirectory()
    let code = Subprocess.wait(
      Subprocess.start(
        program: Subprocess.executable,
        PrecisionDevicesCommandTests.arguments(devices: 100, out: out) + ["--precision", target],
        output: "\(folder)/stdout.txt", errors: "\(folder)/stderr.txt"))
    #expect(code == 0)
    let output = try TestFiles.read("\(folder)/stdout.txt")
    let errors = try TestFiles.read("\(folder)/stderr.txt")
    // One answer: one headline block (its reports line) and, after it, the verdict on the last run.
    #expect(output.ranges(of: "\nreports: ").count == 1, "\(output)")
    let verdict = try #require(output.firstRange(of: "precision: every target met with "))
    #expect(output.firstRange(of: "\nreports: ").map { $0.lowerBound < verdict.lowerBound } == true)
    #expect(!output.contains("running again"))
    // The sample found too small, and the devices the next run takes, are progress.
    #expect(errors.contains("precision: not every target met with 100 devices"), "\(errors)")
    #expect(errors.contains("precision: running again with "), "\(errors)")
  }

  @Test("mixed targets, a resume, and the most devices: refused or said")
  func refusalsAndLimits() throws {
    let out = TestFiles.temporaryDirectory()
    let mixed = try Subprocess.run(
      PrecisionDevicesCommandTests.arguments(devices: 50, out: out + "/mixed") + [
        "--precision", "peak_requests_per_second:5%", "--precision", "staleness_p95@orders:5%",
      ])
    #expect(mixed.code == 2)
    #expect(
      mixed.output.contains(
        "--precision: peak_requests_per_second:5.00% are made precise by simulating more devices and "
          + "staleness_p95@orders:5.00% by more replications: give them to separate runs"), "\(mixed.output)")
    let resumed = try Subprocess.run(
      PrecisionDevicesCommandTests.arguments(devices: 50, out: out + "/resumed") + [
        "--precision", "peak_requests_per_second:5%", "--resume",
      ])
    #expect(resumed.code == 2)
    #expect(resumed.output.contains("--resume: a run whose --precision grows its devices"), "\(resumed.output)")
    // A target out of reach within --max-devices: the run stops there, says so, and succeeds.
    let capped = try Subprocess.run(
      PrecisionDevicesCommandTests.arguments(devices: 50, out: out + "/capped") + [
        "--precision", "p99_requests_per_second@received:0.5%", "--max-devices", "80", "--quiet",
      ])
    #expect(capped.code == 0, "\(capped.output)")
    #expect(
      capped.output.contains("precision: warning: not every target met with 80 devices (the most, --max-devices 80)"),
      "\(capped.output)")
  }
}
