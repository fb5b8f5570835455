import CommandSupport
import Reports
import ScenarioFiles
import SimulationEngine
import Statistics
import TestSupport
import Testing

@testable import Runs

@Suite("run --precision: replications until the confidence intervals are narrow enough")
struct PrecisionTests {
  @Test("targets parse METRIC[@SUBJECT]:P% and refuse anything else")
  func parsing() throws {
    let target = try #require(PrecisionTarget("staleness_p95@headlines:5%"))
    #expect(target.metric == "staleness_p95" && target.subject == "headlines" && target.relativeHalfWidth == 0.05)
    #expect(PrecisionTarget("joules_per_day:0.5%")?.subject == nil)
    for bad in ["staleness_p95", "staleness_p95:5", "staleness_p95:0%", "staleness_p95:101%", ":5%", "a@:5%"] {
      #expect(PrecisionTarget(bad) == nil, "\(bad)")
    }
  }

  @Test("checks come after the minimum, then every batch, never past the maximum")
  func checkpoints() {
    let plan = PrecisionPlan(targets: [], minimum: 3, batch: 10, maximum: 40)
    #expect(plan.minimum == PrecisionPlan.smallestMinimum)  // 3 is raised to 5
    #expect(plan.nextCheck(after: 0) == 5)
    #expect(plan.nextCheck(after: 5) == 15)
    #expect(plan.nextCheck(after: 9) == 15)  // a resumed run goes on to the next check
    #expect(plan.nextCheck(after: 35) == 40)
  }

  /// The relative 95% half-width of a metric's first `count` replications in a replications.csv.
  static func halfWidth(_ csv: String, metric: String, widget: String, count: Int) -> Double {
    var statistics = RunningStatistics()
    for row in CSVLines.parse(csv).dropFirst() where row[2] == metric && row[3] == widget {
      guard let replication = Int(row[1]), replication < count else { continue }
      statistics.add(Double(row[4])!)
    }
    let interval = ConfidenceInterval(statistics)!
    return interval.halfWidth / abs(interval.mean)
  }

  @Test("the run stops at the first check where every target is met, with the same count for any --jobs")
  func stopsWhenMet() throws {
    let loaded = try quickstart(days: 2, replications: 5)
    let targets = [PrecisionTarget("staleness_p95@headlines:10%")!, PrecisionTarget("reloads_per_day@headlines:2%")!]
    var counts: [Int] = []
    var texts: [String] = []
    for jobs in [1, 2] {
      let directory = TestFiles.temporaryDirectory() + "/run"
      var execution = RunExecution(
        loaded, overrides: [], directory: directory, jobs: jobs, quiet: true, version: "test")
      execution.precision = PrecisionPlan(targets: targets, minimum: 5, batch: 5, maximum: 500)
      let summary = try execution.run(console: Printed().console, stop: .never)
      let count = try #require(summary.row("reloads_per_day", widget: "headlines")).values.count
      counts.append(count)
      texts.append(try TestFiles.read("\(directory)/replications.csv"))
      #expect(try TestFiles.read("\(directory)/manifest.json").contains("\"replications\": \(count),"))
      for target in targets {
        let met = target.isMet(in: summary)
        #expect(met, "\(target)")
      }
    }
    #expect(counts[0] == counts[1] && texts[0] == texts[1])
    let count = counts[0]
    #expect(count > 5 && (count - 5) % 5 == 0, "stopped at a check: \(count)")
    // At the check before, some target was still missed.
    let before = count - 5
    let missed =
      Self.halfWidth(texts[0], metric: "staleness_p95", widget: "headlines", count: before) > 0.10
      || Self.halfWidth(texts[0], metric: "reloads_per_day", widget: "headlines", count: before) > 0.02
    #expect(missed)
  }

  @Test("a target the run has no row for is refused before anything runs")
  func unknownMetric() throws {
    let directory = TestFiles.temporaryDirectory() + "/run"
    var execution = RunExecution(try quickstart(), overrides: [], directory: directory, quiet: true, version: "test")
    execution.precision = PrecisionPlan(targets: [PrecisionTarget("staleness_p59:5%")!], minimum: 5)
    let error = #expect(throws: CommandFailure.self) { try execution.run(console: Printed().console, stop: .never) }
    #expect(error?.status == 2)
    #expect(error?.message.contains("no summary row staleness_p59 (did you mean ") == true)
    #expect(!TextFile.isReadable(directory))
    // A suggestion, not a hundred names; failing a near spelling, the names sharing its words.
    let keys = RunSummary.Accumulator(subjects: RunSummary.Subjects(try quickstart().configuration)).rowKeys
    let typo = try #require(PrecisionTarget("staleness_p59:5%")?.refusal(keys: keys))
    #expect(typo.contains("(did you mean ") && typo.contains("'staleness_p95'") && typo.count < 120, "\(typo)")
    let words = try #require(PrecisionTarget("energy_phone_mwh:5%")?.refusal(keys: keys))
    #expect(words.contains("did you mean 'phone_mwh_per_day'"), "\(words)")
    let far = try #require(PrecisionTarget("xyzzy:5%")?.refusal(keys: keys))
    #expect(far.hasSuffix(" more (summary.csv's metric column)") && far.count < 600, "\(far)")
  }

  /// A run of fleet-capacity for a day, 50 devices standing for 10,000, with `precision` and `maxDevices`.
  static func sampledFleet(_ precision: [String], maxDevices: Int? = nil, out: String) -> RunRequest {
    RunRequest(
      file: Repository.path("Scenarios/fleet-capacity.yaml"),
      scenario: ScenarioArguments(
        set: ["fleet.represents=10000"], replications: 1, days: 1, warmupDays: 0, devices: 50),
      out: out, quiet: true, precision: precision, maxDevices: maxDevices, version: "test")
  }

  @Test("a misspelt subject is refused with the nearest, whether replications or devices meet the target")
  func unknownSubject() throws {
    // Devices: a per-second figure of a sampled fleet.
    let directory = TestFiles.temporaryDirectory() + "/run"
    let grown = Self.sampledFleet(["peak_requests_per_second@recieved:5%"], out: directory)
    let refused = #expect(throws: CommandFailure.self) { try grown.run(console: Printed().console, stop: .never) }
    #expect(refused?.status == 2)
    #expect(
      refused?.message.contains(
        "--precision peak_requests_per_second@recieved:5.00%: the run has no summary row peak_requests_per_second "
          + "for 'recieved' (did you mean 'received'?); its subjects: ") == true, "\(refused?.message ?? "")")
    #expect(!TextFile.isReadable(directory))
    // Replications: a subject of the quickstart's.
    var execution = RunExecution(try quickstart(), overrides: [], directory: directory, quiet: true, version: "test")
    execution.precision = PrecisionPlan(targets: [PrecisionTarget("staleness_p95@headline:5%")!], minimum: 5)
    let error = #expect(throws: CommandFailure.self) { try execution.run(console: Printed().console, stop: .never) }
    #expect(error?.status == 2)
    #expect(error?.message.contains("staleness_p95 for 'headline' (did you mean 'headlines'?)") == true)
  }

  @Test("--max-devices past the fleet's real phones is refused before anything runs")
  func maxDevicesPastRepresents() throws {
    let directory = TestFiles.temporaryDirectory() + "/run"
    let request = Self.sampledFleet(["peak_requests_per_second:5%"], maxDevices: 20_000, out: directory)
    let error = #expect(throws: CommandFailure.self) { try request.run(console: Printed().console, stop: .never) }
    #expect(error?.status == 2)
    #expect(
      error?.message.contains(
        "--max-devices 20000: the fleet has 10000 real phones (fleet.represents), and a sample cannot be larger")
        == true, "\(error?.message ?? "")")
    #expect(!TextFile.isReadable(directory))
  }
}
